//! The final analyze step, pure part (built once the analyzer lands).
