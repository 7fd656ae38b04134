"""Planning a study before it is fielded: precision, power, sample size and simulated answers.

- ``sample_size``  efficiency against a direct question, expected half-width, power, required n
- ``simulate``     expected counts and simulated randomized answers for a true prevalence

It uses the core only.
"""
