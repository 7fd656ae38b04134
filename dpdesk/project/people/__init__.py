"""The people in the data: who they are to the budget, and where this computer remembers them.

- ``fingerprint``  order- and format-independent signatures of respondents and of columns
- ``respondents``  the register of respondents this computer has released from
- ``user_data``    this user's data folder, where the register and the ledger's key live

It imports nothing else of the project: the ledger, imports and analyses build on it.
"""
