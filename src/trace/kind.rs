//! The event types the engine itself emits, as one closed vocabulary: emitters and readers
//! (audit, tests) use these names, so a typo does not compile. Open families built from input
//! (`agent.signal.<type>`, `dev.<target>.reload.completed`) stay strings under their prefix.

/// An event type the engine emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A skill call ran to completion.
    SkillExecuted,
    /// A skill call failed after its policy decision (invalid output, handler error).
    SkillFailed,
    /// The policy engine allowed a call.
    PolicyDecision,
    /// The policy engine denied a call.
    PolicyDenied,
    /// Governance changed who may do what (revocations, quotas, budgets).
    PolicyChanged,
    /// A call lacked a permission its skill needs.
    SecurityPermissionDenied,
    /// A skill call panicked (a bug); it returned a `handler_error` instead of ending the process.
    SkillPanicked,
    /// A fixed step panicked (a bug); the step failed instead of ending the process.
    EngineStepPanicked,
    /// A package's skills were registered.
    PackageLoaded,
    /// A package was refused (manifest, resolution, over-claim, load failure, skill conflict).
    PackageRejected,
    /// Sandboxed package code hit a limit or broke a rule.
    PackageViolation,
    /// `package.load` loaded a package.
    PackageLoadCompleted,
    /// `package.load` refused.
    PackageLoadDenied,
    /// A changed package was reloaded.
    DevSkillReloadCompleted,
    /// A changed package could not be reloaded (the last good version keeps running).
    DevSkillReloadFailed,
    /// An agent whose decision was due perceived the world.
    AgentPerceptionUpdated,
    /// An agent's provider answered; its valid tool calls were queued.
    AgentDecisionCompleted,
    /// An agent's provider failed or timed out; the agent idles until its next turn.
    AgentDecisionFailed,
    /// A provider's answer came after its decision was abandoned (or its agent left): dropped.
    AgentDecisionDiscarded,
    /// A tool call from a decision was refused before queueing (unknown tool, invalid input).
    AgentToolcallRejected,
    /// A scheduler budget cut something (decision starts, actions, queue depth, tool calls).
    AgentSchedulerCapped,
    /// An agent said a line (`social.say`); the actor is always the real speaker.
    SocialSaid,
    /// An agent's walk (`social.approach`) reached talking distance.
    SocialApproached,
    /// An agent's walk gave up (target gone, body gone, or too long).
    SocialApproachFailed,
    /// A UI element's ttl ran out and it was removed.
    UiExpired,
    /// A session leased entities (`scene.lease`) or renewed its leases.
    LeaseGranted,
    /// A holder (or the operator) released leases (`scene.release`).
    LeaseReleased,
    /// A lease reached its expiry tick and left at the tick boundary.
    LeaseExpired,
    /// The operator wrote over another session's lease (operators are never refused).
    LeaseOverridden,
    /// Older events could not be written to the trace's spill file: they stay in memory (the
    /// payload says why and when it is tried again).
    TraceSpillFailed,
    /// Spilling works again after a failure: memory is back to its window.
    TraceSpillResumed,
    /// The shared clock stopped (`world.pause`, or `--paused` at start).
    WorldPaused,
    /// The shared clock runs again (`world.resume`).
    WorldResumed,
    /// A `world.step` call ran its ticks: how many, where it stopped and why.
    WorldStepped,
    /// An agent read an instruction skill: active for its next decision (or kept).
    SkillActivated,
    /// An instruction skill stopped being active for an agent (used, evicted, disabled).
    SkillDeactivated,
}

impl EventKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            EventKind::SkillExecuted => "skill.executed",
            EventKind::SkillFailed => "skill.failed",
            EventKind::PolicyDecision => "policy.decision",
            EventKind::PolicyDenied => "policy.denied",
            EventKind::PolicyChanged => "policy.changed",
            EventKind::SecurityPermissionDenied => "security.permission.denied",
            EventKind::SkillPanicked => "skill.panicked",
            EventKind::EngineStepPanicked => "engine.step.panicked",
            EventKind::PackageLoaded => "package.loaded",
            EventKind::PackageRejected => "package.rejected",
            EventKind::PackageViolation => "package.violation",
            EventKind::PackageLoadCompleted => "package.load.completed",
            EventKind::PackageLoadDenied => "package.load.denied",
            EventKind::DevSkillReloadCompleted => "dev.skill.reload.completed",
            EventKind::DevSkillReloadFailed => "dev.skill.reload.failed",
            EventKind::AgentPerceptionUpdated => "agent.perception.updated",
            EventKind::AgentDecisionCompleted => "agent.decision.completed",
            EventKind::AgentDecisionFailed => "agent.decision.failed",
            EventKind::AgentDecisionDiscarded => "agent.decision.discarded",
            EventKind::AgentToolcallRejected => "agent.toolcall.rejected",
            EventKind::AgentSchedulerCapped => "agent.scheduler.capped",
            EventKind::SocialSaid => "social.said",
            EventKind::SocialApproached => "social.approached",
            EventKind::SocialApproachFailed => "social.approach.failed",
            EventKind::UiExpired => "ui.expired",
            EventKind::LeaseGranted => "lease.granted",
            EventKind::LeaseReleased => "lease.released",
            EventKind::LeaseExpired => "lease.expired",
            EventKind::LeaseOverridden => "lease.overridden",
            EventKind::TraceSpillFailed => "trace.spill.failed",
            EventKind::TraceSpillResumed => "trace.spill.resumed",
            EventKind::WorldPaused => "world.paused",
            EventKind::WorldResumed => "world.resumed",
            EventKind::WorldStepped => "world.stepped",
            EventKind::SkillActivated => "skill.activated",
            EventKind::SkillDeactivated => "skill.deactivated",
        }
    }

    /// Whether a recorded type names this kind.
    pub fn is(self, event_type: &str) -> bool {
        self.as_str() == event_type
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
