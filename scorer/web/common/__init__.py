"""What two or more blueprints of the web app share, and nothing of any one blueprint: the languages
(``i18n``), the pages' answer type and refusals (``pages``), the refusals' messages (``messages``),
the strict reading of JSON bodies (``strict_json``), the proxy's https (``proxy``), the Flask
extensions (``extensions``: CSRF, the creation limit, migrations), the table of a request resolved
once from its link (``table``), the forms (``forms``; ``hand_form``: a table's hand form for a deal),
the evening's view-models and event forms (``evening``, ``evening_forms``), the tables this browser
keeps (``remember``), the new-table page's peña hooks (``pena_tables``), the sheet's answers section
(``answers_sheet``) and R31's sum that squares (``square``)."""
