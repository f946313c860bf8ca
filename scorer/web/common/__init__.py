"""What every blueprint shares, and nothing of any one blueprint: the table of a request, resolved once
from its link (``table``), the languages (``i18n``), every refusal's words (``messages``), the pages'
answer type and refusals (``pages``), the new-table, import and confirm forms built from the games
(``forms``) and the hand form of a deal (``hand_form``), the evening's state and event forms the table
page, the API and the offline forms show too (``evening``, ``evening_forms``), the tables a browser
keeps (``remember``), a peña's new table (``pena_tables``), the sheet's answers section and R31's sum
(``answers_sheet``, ``square``), the strict reading of JSON bodies (``strict_json``), the proxy's https
(``proxy``) and the Flask extensions (``extensions``: CSRF, the creation limit, migrations)."""
