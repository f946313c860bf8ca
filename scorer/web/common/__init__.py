"""What every blueprint of the web app shares, and nothing of any one blueprint: the languages
(``i18n``), the pages' answer type and refusals (``pages``), the strict reading of JSON bodies
(``strict_json``), the proxy's https (``proxy``), the Flask extensions (``extensions``: CSRF, the
creation limit, migrations) and the table of a request, resolved once from its link (``table``)."""
