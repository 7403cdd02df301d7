//! Planning: dedupe, collapse YAML suites, one YAML runner per project, batch by kind, build argv.
