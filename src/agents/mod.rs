//! In-world agents (players): records that are world state, changed only through the `agent.*`
//! skills (`table`, `record`); what an agent perceives (`perception`); the scheduler budgets
//! (`budget`); who holds which agent and session ids, and the id forms the engine keeps
//! (`claims`); and the decision providers behind one async seam (`provider`). The systems that
//! run them each step live with the step, in `host::agents`.

pub mod budget;
pub mod claims;
pub mod perception;
pub mod provider;
pub mod record;
pub mod social;
pub mod table;
