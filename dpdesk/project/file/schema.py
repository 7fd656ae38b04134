"""The tables of a ``.dpdesk`` project file and the migrations between schema versions.

A project file is one SQLite database. Its schema version is ``PRAGMA user_version``;
``PRAGMA application_id`` and the ``app`` table's ``magic`` row mark it as a dpdesk
project. ``MIGRATIONS[k - 1]`` turns a version-``k`` file into a version-``k + 1`` file;
:func:`migrate` runs them inside the caller's transaction.

Never edit a released version's DDL: add a migration and bump :data:`SCHEMA_VERSION`,
then add a fixture of the new version (``tests/fixtures/make_fixtures.py``).
"""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from typing import Callable

#: ``PRAGMA application_id`` of every dpdesk project: the bytes "DPDk" as a big-endian int.
APPLICATION_ID = 0x44504B64
#: Value of the ``app`` table's ``magic`` row.
MAGIC = "dpdesk project"
#: Schema version written by this dpdesk.
SCHEMA_VERSION = 4

# Fractions are stored as exact text "p/q" or "n" (str(fractions.Fraction)). These SQL
# expressions read the numerator and denominator of such a text column as integers.
_NUM = "CAST(CASE WHEN instr({c}, '/') > 0 THEN substr({c}, 1, instr({c}, '/') - 1) ELSE {c} END AS INTEGER)"
_DEN = "CAST(CASE WHEN instr({c}, '/') > 0 THEN substr({c}, instr({c}, '/') + 1) ELSE '1' END AS INTEGER)"
_FRACTION_CHECK = "({c} GLOB '[0-9]*' AND {c} NOT GLOB '*[^0-9/]*' AND {c} NOT GLOB '*/*/*' AND {den} > 0)"


def _fraction_check(column: str) -> str:
    return _FRACTION_CHECK.format(c=column, den=_DEN.format(c=column))


def _greater(a: str, b: str) -> str:
    """SQL: exact fraction text ``a`` > ``b`` (cross-multiplied integers, denominators > 0)."""
    return f"({_NUM.format(c=a)} * {_DEN.format(c=b)} > {_NUM.format(c=b)} * {_DEN.format(c=a)})"


_NOW = "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"

_RAISES_BUDGET = (
    "EXISTS (SELECT 1 FROM (SELECT epsilon, delta FROM budget"
    " WHERE dataset_sha256 IS NEW.dataset_sha256 ORDER BY id DESC LIMIT 1) AS latest"
    f" WHERE {_greater('NEW.epsilon', 'latest.epsilon')} OR {_greater('NEW.delta', 'latest.delta')})"
)

V1_DDL = f"""
CREATE TABLE app (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE items (
    id                 INTEGER PRIMARY KEY,
    name               TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    question           TEXT NOT NULL DEFAULT '',
    design_name        TEXT NOT NULL,
    design_params      TEXT NOT NULL,          -- JSON object
    design_description TEXT NOT NULL DEFAULT '',
    design             TEXT NOT NULL,          -- JSON: Design.to_dict() (matrices, epsilon, ...)
    column_name        TEXT,                   -- data column holding the recorded responses
    codes              TEXT,                   -- JSON: code mapping (see dpdesk.project.study.items)
    group_column       TEXT,                   -- data column holding the group (two-group designs)
    group_codes        TEXT,                   -- JSON: which group codes mean which group
    created_at         TEXT NOT NULL DEFAULT {_NOW},
    modified_at        TEXT NOT NULL DEFAULT {_NOW}
);

CREATE TABLE datasets (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    table_name    TEXT NOT NULL UNIQUE,        -- the SQLite table holding the rows: data_<id>
    n_rows        INTEGER NOT NULL,
    source_name   TEXT,
    source_sha256 TEXT,
    source_size   INTEGER,
    options       TEXT NOT NULL DEFAULT '{{}}',  -- JSON: import options
    report        TEXT NOT NULL DEFAULT '{{}}',  -- JSON: import report
    imported_at   TEXT NOT NULL DEFAULT {_NOW},
    app_version   TEXT NOT NULL DEFAULT ''
);

CREATE TABLE dataset_columns (
    dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL,                  -- the column name the user sees
    sql_name   TEXT NOT NULL,                  -- the column in the data table: c<position> (idx)
    dtype      TEXT NOT NULL,                  -- pandas dtype, e.g. int64, category, Int64
    categories TEXT,                           -- JSON list, for categoricals
    ordered    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dataset_id, position)    -- position -1: the frame's row index, if not 0..n-1
);

CREATE TABLE analyses (
    id          INTEGER PRIMARY KEY,
    item_id     INTEGER REFERENCES items(id) ON DELETE SET NULL,
    item_name   TEXT,                          -- the item's name when the analysis was saved
    options     TEXT NOT NULL,                 -- JSON
    results     TEXT NOT NULL,                 -- JSON
    created_at  TEXT NOT NULL DEFAULT {_NOW},
    app_version TEXT NOT NULL DEFAULT ''
);
CREATE INDEX analyses_item ON analyses(item_id);

-- The release ledger of central DP. Budgets may only be lowered; releases are append-only.
CREATE TABLE budget (
    id             INTEGER PRIMARY KEY,
    epsilon        TEXT NOT NULL CHECK {_fraction_check("epsilon")},   -- exact fraction, e.g. '3/10'
    delta          TEXT NOT NULL DEFAULT '0' CHECK {_fraction_check("delta")},
    set_time       TEXT NOT NULL DEFAULT {_NOW},
    dataset_sha256 TEXT
);

CREATE TRIGGER budget_never_raised BEFORE INSERT ON budget
WHEN {_RAISES_BUDGET}
BEGIN
    SELECT RAISE(ABORT, 'the privacy budget can only be lowered, never raised');
END;

CREATE TRIGGER budget_no_update BEFORE UPDATE ON budget
BEGIN
    SELECT RAISE(ABORT, 'budget rows cannot be changed: insert a new, lower budget instead');
END;

CREATE TRIGGER budget_no_delete BEFORE DELETE ON budget
BEGIN
    SELECT RAISE(ABORT, 'budget rows cannot be deleted: the budget can only be lowered');
END;

CREATE TABLE releases (
    seq            INTEGER PRIMARY KEY,
    time           TEXT NOT NULL DEFAULT {_NOW},
    app_version    TEXT NOT NULL DEFAULT '',
    dataset_sha256 TEXT NOT NULL,
    request        TEXT NOT NULL,              -- JSON: what was asked for
    mechanism      TEXT NOT NULL,              -- e.g. discrete_laplace
    noise_params   TEXT NOT NULL,              -- JSON: scale, sensitivity, ...
    cost           TEXT NOT NULL,              -- JSON: {{"epsilon": "1/10", "delta": "0"}}
    result         TEXT NOT NULL,              -- JSON: the noisy result, as released
    prev_hash      TEXT NOT NULL,
    hash           TEXT NOT NULL UNIQUE
);

CREATE TRIGGER releases_no_update BEFORE UPDATE ON releases
BEGIN
    SELECT RAISE(ABORT, 'the release ledger is append-only: a release cannot be changed');
END;

CREATE TRIGGER releases_no_delete BEFORE DELETE ON releases
BEGIN
    SELECT RAISE(ABORT, 'the release ledger is append-only: a release cannot be deleted');
END;
"""


def create_schema(conn: sqlite3.Connection, app_version: str, created_at: str) -> None:
    """Write the current schema into an empty database (inside the caller's transaction)."""
    for statement in _statements(V1_DDL):
        conn.execute(statement)
    conn.executemany(
        "INSERT INTO app(key, value) VALUES (?, ?)",
        [("magic", MAGIC), ("created_by", f"dpdesk {app_version}"), ("created_at", created_at)],
    )
    # Later versions: run the migrations on the v1 schema, so there is one path to each version.
    migrate(conn, 1)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def build_version(conn: sqlite3.Connection, version: int, ddl: str = V1_DDL,
                  migrations: "list[Migration] | tuple[Migration, ...] | None" = None) -> None:
    """Write the tables of file-format ``version`` into an empty database, as dpdesk makes them.

    The same path as :func:`create_schema` and :func:`migrate`: the v1 DDL, then the first
    ``version - 1`` migrations. :mod:`dpdesk.project.file.schema_check` builds each known
    version this way (in memory) to compare an opened file's schema with it.
    """
    for statement in _statements(ddl):
        conn.execute(statement)
    for migration in list(MIGRATIONS if migrations is None else migrations)[: version - 1]:
        migration(conn)


def _statements(ddl: str) -> list[str]:
    """Split a DDL script into statements (triggers contain ';' before their END)."""
    out, buf = [], []
    for line in ddl.splitlines():
        if line.strip().startswith("--") and not buf:
            continue
        buf.append(line)
        text = "\n".join(buf)
        if text.strip() and sqlite3.complete_statement(text):
            out.append(text.strip())
            buf = []
    assert not "\n".join(buf).strip(), "unterminated DDL statement"
    return out


Migration = Callable[[sqlite3.Connection], None]

#: ``MIGRATIONS[k - 1]`` upgrades a version-``k`` file to version ``k + 1``. Each one only
#: changes tables; :func:`migrate` sets ``user_version`` and runs in one transaction.
def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """v2: items keep the respondent instructions as the researcher edited them."""
    conn.execute("ALTER TABLE items ADD COLUMN instructions TEXT NOT NULL DEFAULT ''")


_RAISES_PROJECT_BUDGET = (
    "EXISTS (SELECT 1 FROM (SELECT epsilon, delta FROM budget ORDER BY id DESC LIMIT 1) AS latest"
    f" WHERE {_greater('NEW.epsilon', 'latest.epsilon')} OR {_greater('NEW.delta', 'latest.delta')})"
)


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """v3: one privacy budget per project, covering every dataset imported into it.

    Until v2 a budget belonged to one dataset's SHA-256, so a re-import with one byte changed
    started afresh on the same respondents. The migration is conservative: the project's
    budget is the smallest epsilon and the smallest delta ever set for any of its data, and
    every recorded release is spent from it (:mod:`dpdesk.project.ledger.budget`). Budget
    rows stay append-only; the trigger now compares a new row with the latest of the
    project, whatever data it was set for.
    """
    rows = conn.execute("SELECT epsilon, delta FROM budget").fetchall()
    conn.execute("DROP TRIGGER budget_never_raised")
    if rows:
        eps = min(Fraction(r[0]) for r in rows)
        delta = min(Fraction(r[1]) for r in rows)
        conn.execute("INSERT INTO budget(epsilon, delta, dataset_sha256) VALUES (?, ?, NULL)", (str(eps), str(delta)))
    conn.execute(f"""CREATE TRIGGER budget_never_raised BEFORE INSERT ON budget
WHEN {_RAISES_PROJECT_BUDGET}
BEGIN
    SELECT RAISE(ABORT, 'the privacy budget can only be lowered, never raised');
END""")


# -- v4 -------------------------------------------------------------------------------------
# One migration, in parts: each part adds the tables of one capability. A part is filled in
# by the work that needs it; until a v4 file has left this repository, a part may still change.


def _v4_item_mappings(conn: sqlite3.Connection) -> None:
    """v4 part: an item's mapping per dataset (column, codes, groups, missing codes).

    From v4 on ``item_mappings`` is the truth: one row per item and dataset it is mapped in.
    The items table keeps its mapping columns as the item's latest mapping, used while the
    project has no data and offered to each new import. The migration loses nothing: a v3
    item's mapping becomes its mapping in every dataset that has its column (and its group
    column), which is where it worked in v3, whichever dataset was active.
    """
    conn.execute(f"""CREATE TABLE item_mappings (
    item_id       INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    dataset_id    INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    column_name   TEXT NOT NULL,                 -- the column holding the recorded responses
    codes         TEXT NOT NULL,                 -- JSON: code mapping (see dpdesk.project.study.items)
    group_column  TEXT,                          -- the column holding the group (two-group designs)
    group_codes   TEXT,                          -- JSON: which group codes mean which group
    missing_codes TEXT,                          -- JSON list: codes counted as missing (None: the file's)
    modified_at   TEXT NOT NULL DEFAULT {_NOW},
    PRIMARY KEY (item_id, dataset_id)
)""")
    conn.execute("CREATE INDEX item_mappings_dataset ON item_mappings(dataset_id)")
    has = ("EXISTS (SELECT 1 FROM dataset_columns c WHERE c.dataset_id = d.id AND c.position >= 0"
           " AND c.name = {})")
    conn.execute(
        "INSERT INTO item_mappings(item_id, dataset_id, column_name, codes, group_column, group_codes, modified_at)"
        " SELECT i.id, d.id, i.column_name, i.codes, i.group_column, i.group_codes, i.modified_at"
        " FROM items AS i CROSS JOIN datasets AS d"
        " WHERE i.column_name IS NOT NULL AND i.codes IS NOT NULL"
        f" AND {has.format('i.column_name')}"
        f" AND (i.group_column IS NULL OR {has.format('i.group_column')})"
    )


def _v4_column_labels(conn: sqlite3.Connection) -> None:
    """v4 part: column labels and value labels, from the file or set by the researcher.

    ``column_labels`` holds one row per labelled column of a dataset: its label (the
    question text) and its value labels as JSON ``[[code, label], ...]`` with each code in
    the exact stored form of :func:`dpdesk.project.file.columns.tag` (so 1, 1.0 and "1" stay
    apart), and who set each (``'file'`` or ``'researcher'``). ``item_labels`` holds the short
    label a researcher gives an item for tables and plots. The labels a v3 file kept in its
    import report are copied over (:func:`dpdesk.project.file.labels.migrate_report_labels`).
    """
    conn.execute("""CREATE TABLE column_labels (
    dataset_id   INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    label        TEXT,
    value_labels TEXT,
    source       TEXT NOT NULL DEFAULT 'file' CHECK (source IN ('file', 'researcher')),
    value_source TEXT NOT NULL DEFAULT 'file' CHECK (value_source IN ('file', 'researcher')),
    PRIMARY KEY (dataset_id, position)
)""")
    conn.execute("""CREATE TABLE item_labels (
    item_id     INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
    short_label TEXT NOT NULL
)""")
    from dpdesk.project.file.labels import migrate_report_labels

    migrate_report_labels(conn)


def _v4_survey_designs(conn: sqlite3.Connection) -> None:
    """v4 part: a dataset's survey design (weights, strata, clusters, population sizes).

    One row per dataset that has a design (``dpdesk.project.study.survey_design``): the names of
    its weight, stratum, cluster (PSU) and population-size (fpc) columns, a known population
    size for Horvitz-Thompson means, and what to do with strata of one PSU.
    """
    conn.execute("""CREATE TABLE survey_designs (
    dataset_id INTEGER PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
    weights    TEXT,                           -- column names in the dataset (NULL: none)
    strata     TEXT,
    clusters   TEXT,
    fpc        TEXT,
    population REAL CHECK (population IS NULL OR population > 0),
    lonely_psu TEXT NOT NULL DEFAULT 'fail' CHECK (lonely_psu IN ('fail', 'certainty', 'average', 'adjust')),
    updated_at TEXT NOT NULL
)""")


def _v4_respondent_texts(conn: sqlite3.Connection) -> None:
    """v4 part: the respondent's text per language, and the instruments fielded.

    ``item_texts`` holds an item's respondent text that is not in ``items`` (question B of the
    two-question designs, ...), one row per item, language and part; v3 files kept question B
    only inside the edited instructions (a line "B: ..."), copied here as English.
    ``instruments`` records each instrument exported for a survey platform: its format, the
    languages and items, and a copy of the exported text, so a later reader knows what
    respondents saw.
    ``item_languages``: the languages an item is fielded in besides the one it was written in, and
    whether the research team has reviewed its text in each (TRAPD). ``item_texts`` parts are
    question, question_b, instructions, card and options; a part without a row is generated
    from dpdesk's templates in that language.
    """
    conn.execute("""CREATE TABLE item_texts (
    item_id  INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    language TEXT NOT NULL CHECK (length(language) > 0),
    part     TEXT NOT NULL CHECK (length(part) > 0),    -- e.g. question_b
    text     TEXT NOT NULL,
    PRIMARY KEY (item_id, language, part)
)""")
    conn.execute("""CREATE TABLE instruments (
    id         INTEGER PRIMARY KEY,
    format     TEXT NOT NULL,                           -- qsf, qualtrics-txt, limesurvey, redcap, xlsform
    mode       TEXT NOT NULL DEFAULT 'online',          -- online or interview
    languages  TEXT NOT NULL,                           -- JSON list of language codes
    items      TEXT NOT NULL,                           -- JSON: per item, its design and the fields exported
    content    TEXT NOT NULL,                           -- the exported text (JSON of file name -> text)
    created_at TEXT NOT NULL DEFAULT {now}
)""".format(now=_NOW))
    for item_id, instructions in conn.execute("SELECT id, instructions FROM items").fetchall():
        b = next((line[2:].strip() for line in (instructions or "").splitlines()
                  if line.startswith("B:") and line[2:].strip()), "")
        if b:
            conn.execute("INSERT INTO item_texts(item_id, language, part, text) VALUES (?, 'en', 'question_b', ?)",
                         (item_id, b))
    conn.execute(f"""CREATE TABLE item_languages (
    item_id     INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    language    TEXT NOT NULL CHECK (length(language) > 0),
    reviewed    INTEGER NOT NULL DEFAULT 0 CHECK (reviewed IN (0, 1)),  -- checked by a native speaker
    reviewed_by TEXT NOT NULL DEFAULT '',                                -- who reviewed it, in words
    modified_at TEXT NOT NULL DEFAULT {_NOW},
    PRIMARY KEY (item_id, language)
)""")


def _v4_ledger(conn: sqlite3.Connection) -> None:
    """v4 part: what the ledger and copies of a project need.

    v4 is the first version whose every writer seals its ledger. A ledger upgraded without a
    seal (made by a dpdesk before seals) is marked with the releases it had, so a v4 file
    without a seal says truthfully whether it was made so or had its seal removed.
    """
    if conn.execute("SELECT 1 FROM app WHERE key = 'ledger_seal'").fetchone() is None:
        last = conn.execute("SELECT seq, hash FROM releases ORDER BY seq DESC LIMIT 1").fetchone()
        if last is not None:
            conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES ('ledger_unsealed_at_upgrade', ?)",
                         (f"{last[0]}:{last[1]}",))


def _v3_to_v4(conn: sqlite3.Connection) -> None:
    """v4: a real study: mappings per dataset, labels, survey designs, languages."""
    _v4_item_mappings(conn)

    _v4_column_labels(conn)

    _v4_survey_designs(conn)

    _v4_respondent_texts(conn)

    _v4_ledger(conn)


MIGRATIONS: list[Migration] = [_v1_to_v2, _v2_to_v3, _v3_to_v4]

assert len(MIGRATIONS) == SCHEMA_VERSION - 1


def migrate(conn: sqlite3.Connection, from_version: int) -> None:
    """Upgrade ``conn`` (inside an open transaction) from ``from_version`` to the current one."""
    for version in range(from_version, SCHEMA_VERSION):
        MIGRATIONS[version - 1](conn)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
