"""The document: project file, imports, exports, ledger. No Qt."""
