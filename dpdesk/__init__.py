"""dpdesk: randomized-response surveys and differentially private tabulations.

Layers (DESIGN.md): ``dpdesk.mechanisms`` (pure mathematics) <- ``dpdesk.project``
(the document, imports, exports, the ledger) <- ``dpdesk.gui`` and ``dpdesk.cli``.
"""

__version__ = "0.1.0"
