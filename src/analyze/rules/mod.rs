//! What the counts mean: each test's verdict and the conditions it rests
//! on, its first executions against its repeats, alone against its whole
//! task, a class's drift, the tests nobody selected, the plan against what
//! ran, and each batch's job outcome. Pure functions over the model.

pub mod clusters;
pub mod conditions;
pub mod context;
pub mod drift;
pub(crate) mod first_execution;
pub mod neighbours;
pub(crate) mod outcome;
pub(crate) mod planned;
pub(crate) mod verdict;
