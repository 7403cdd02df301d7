//! The final analyze step, pure part.
