"""Damaging a study file on purpose, for the hostile tests and
benchmarks/bench_study_files.py: one table made again loose, and what a
column's values may be changed to."""


def rebuild(conn, table, drop=None):
    """`table` again with its key and no other type or constraint (a hostile
    file need not keep them), without the column `drop`."""
    info = conn.execute(f"PRAGMA table_info({table})").fetchall()
    names = [row[1] for row in info if row[1] != drop]
    cells = ", ".join(f'"{row[1]}" {row[2]} PRIMARY KEY' if row[5] else f'"{row[1]}"'
                      for row in info if row[1] != drop)
    conn.execute(f"CREATE TABLE loose ({cells})")
    quoted = ", ".join(f'"{n}"' for n in names)
    conn.execute(f"INSERT INTO loose ({quoted}) SELECT {quoted} FROM {table}")
    conn.execute(f"DROP TABLE {table}")
    conn.execute(f"ALTER TABLE loose RENAME TO {table}")


MUTATIONS = {
    "dropped": None,
    "NULL": "NULL",
    "a blob": "X'00ff'",
    "text": "'seven'",
    "a number": "7.5",
    "not JSON": "'[1, 2'",
    "another JSON": "'{\"a\": [1]}'",
}
