//! Keeping the operator's credentials out of everything a provider hands back. A model server
//! can echo what it was sent (an error body quoting the `Authorization` header, a model told to
//! repeat it), and what a provider returns reaches the world log (`agent.decision.failed`,
//! rejected calls, the calls' inputs), agents' perception and the logs. So every string in a
//! `Decision` or a `ProviderError` passes through the provider's `Redactor` (`crate::redact`:
//! the key, the password in the base URL, and their encodings) before it leaves `decide`: one
//! place, whatever path the text took.

pub(super) use crate::redact::Redactor;

use super::{Decision, ProviderError, RejectReason};

impl Redactor {
    /// `decision` with every string that came from the server redacted.
    pub(super) fn decision(&self, mut decision: Decision) -> Decision {
        if self.is_empty() {
            return decision;
        }
        for call in &mut decision.tool_calls {
            call.tool = self.text(&call.tool);
            call.input = self.value(std::mem::take(&mut call.input));
        }
        for rejected in &mut decision.rejected {
            rejected.tool = self.text(&rejected.tool);
            rejected.arguments = self.text(&rejected.arguments);
            if let RejectReason::ArgumentsNotJson { detail } = &mut rejected.reason {
                *detail = self.text(detail);
            }
        }
        decision
    }

    /// `error` with every string in it redacted (the URL too: it may carry a password).
    pub(super) fn error(&self, error: ProviderError) -> ProviderError {
        if self.is_empty() {
            return error;
        }
        let t = |s: String| self.text(&s);
        match error {
            ProviderError::Unreachable { url, detail } => ProviderError::Unreachable { url: t(url), detail: t(detail) },
            ProviderError::Timeout { url, after_ms } => ProviderError::Timeout { url: t(url), after_ms },
            ProviderError::Http { url, status, body } => ProviderError::Http { url: t(url), status, body: t(body) },
            ProviderError::Malformed { url, detail } => ProviderError::Malformed { url: t(url), detail: t(detail) },
            ProviderError::Empty { url, content } => ProviderError::Empty { url: t(url), content: t(content) },
            ProviderError::TooLarge { url, limit } => ProviderError::TooLarge { url: t(url), limit },
            ProviderError::Setup { provider, detail } => ProviderError::Setup { provider, detail: t(detail) },
            e @ ProviderError::NotConfigured { .. } => e,
        }
    }

    /// `result` with everything in it redacted: what `decide` returns.
    pub(super) fn result(&self, result: Result<Decision, ProviderError>) -> Result<Decision, ProviderError> {
        result.map(|d| self.decision(d)).map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const KEY: &str = "sk-proj-Abc123/def+456_ghi789JKL";

    #[test]
    fn decisions_and_errors_are_redacted_everywhere() {
        let r = Redactor::new([KEY]);
        let e = r.error(ProviderError::Http { url: "http://x".into(), status: 401, body: format!("bad key {KEY}") });
        assert!(!e.to_string().contains("Abc123"), "{e}");
        let d = Decision {
            tool_calls: vec![super::super::ToolCall { tool: "social.say".into(), input: json!({"text": KEY, KEY: [KEY]}) }],
            rejected: vec![super::super::RejectedCall {
                tool: KEY.into(),
                arguments: KEY.into(),
                reason: RejectReason::ArgumentsNotJson { detail: KEY.into() },
            }],
            ..Decision::default()
        };
        let text = format!("{:?}", r.decision(d));
        assert!(!text.contains("Abc123"), "{text}");
    }
}
