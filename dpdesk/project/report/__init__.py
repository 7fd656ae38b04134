"""The output document, the report and the methods paragraph (no Qt).

``number_style`` formats numbers (one style everywhere), ``model`` holds sections and
APA tables, ``document`` builds them from analysis results, ``render`` writes HTML and
TSV, ``design_words`` and ``references`` give the designs in words and the citations,
``methods`` writes the methods paragraph and ``report`` the whole report as HTML.
"""
