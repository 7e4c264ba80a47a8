//! In-world agents (players): records that are world state, changed only through the `agent.*`
//! skills (`table`, `record`); what an agent perceives (`perception`); the scheduler budgets
//! (`budget`); who holds which agent and session ids, and the id forms the engine keeps
//! (`claims`); the instruction skills an agent reads (`instructions`); what agents hear and what happens to them between looks (`hearing`); the decision providers behind one async seam (`provider`); and the systems the
//! step runs for them (`systems`: act, perceive, decide; `walk`: approaches), which reach the
//! skill registry and the command log above them through one door (`systems::EngineDoor`).

pub mod budget;
pub mod claims;
pub mod hearing;
pub mod instructions;
pub mod perception;
pub mod provider;
pub mod record;
mod scripted_request;
pub mod social;
pub(crate) mod systems;
pub use systems::AgentMemoryError;
pub mod table;
pub mod walk;
