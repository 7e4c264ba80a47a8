//! Where a NATS server is: `nats://[user:pass@|token@]host[:port][/WORLD]`, parsed once and
//! shown without its credentials (Display, Debug and every error leave them out), so a URL can
//! be logged, traced and put into errors freely.
//!
//! The credentials are handed to the client as connect options, never inside the address it
//! dials: the client's own messages cannot quote them either. The optional `/WORLD` path names a
//! world for the CLI (`limina … nats://host/main`); the connection itself ignores it.

use super::NatsError;
use super::stream::check_world;

/// The port a URL without one means (the NATS default).
pub const DEFAULT_PORT: u16 = 4222;
/// Longest URL accepted: any real one is far shorter, and a refused one is shown clipped.
const MAX_URL: usize = 2048;

/// How the client proves who it is, if at all.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Credentials {
    UserPassword { user: String, password: String },
    Token(String),
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Credentials::UserPassword { .. } => "UserPassword(redacted)",
            Credentials::Token(_) => "Token(redacted)",
        })
    }
}

impl Credentials {
    /// The secret texts, for redacting them from anything the client reports.
    pub(crate) fn secrets(&self) -> Vec<&str> {
        match self {
            Credentials::UserPassword { user, password } => vec![user, password],
            Credentials::Token(token) => vec![token],
        }
    }
}

/// A parsed `nats://` URL.
#[derive(Clone, PartialEq, Eq)]
pub struct NatsUrl {
    host: String,
    port: u16,
    credentials: Option<Credentials>,
    world: Option<String>,
}

impl NatsUrl {
    /// Parses `nats://[user:pass@|token@]host[:port][/WORLD]`; user, password and token may be
    /// percent-encoded. `host` is a name, an IPv4 address or a bracketed IPv6 address.
    pub fn parse(text: &str) -> Result<NatsUrl, NatsError> {
        // The shown form of a refused URL never holds what looks like credentials.
        let shown = || shown_without_credentials(text);
        let bad = |why: &'static str| NatsError::BadUrl { url: shown(), why };
        if text.len() > MAX_URL {
            return Err(bad("it is longer than 2048 bytes"));
        }
        let rest = text.strip_prefix("nats://").ok_or_else(|| bad("it does not start with nats://"))?;
        if rest.contains(['?', '#']) {
            return Err(bad("it has a query or fragment; only nats://[user:pass@|token@]host[:port][/WORLD] is understood"));
        }
        let (authority, path) = match rest.find('/') {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let (userinfo, hostport) = match authority.rfind('@') {
            Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
            None => (None, authority),
        };
        let credentials = match userinfo {
            None => None,
            Some(info) => Some(match info.split_once(':') {
                Some((user, password)) => Credentials::UserPassword {
                    user: percent_decode(user).ok_or_else(|| bad("its user name is not valid percent-encoded UTF-8"))?,
                    password: percent_decode(password).ok_or_else(|| bad("its password is not valid percent-encoded UTF-8"))?,
                },
                None => Credentials::Token(percent_decode(info).ok_or_else(|| bad("its token is not valid percent-encoded UTF-8"))?),
            }),
        };
        if let Some(Credentials::UserPassword { user, .. }) = &credentials
            && user.is_empty()
        {
            return Err(bad("its user name is empty"));
        }
        if let Some(Credentials::Token(token)) = &credentials
            && token.is_empty()
        {
            return Err(bad("its token is empty"));
        }
        let (host, port) = split_host_port(hostport).map_err(bad)?;
        let world = match path {
            None | Some("") => None,
            Some(world) => {
                check_world(world).map_err(|why| NatsError::BadUrl { url: shown(), why })?;
                Some(world.to_string())
            }
        };
        Ok(NatsUrl { host, port, credentials, world })
    }

    pub fn host(&self) -> &str {
        &self.host
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The world named by the URL's path, if any.
    pub fn world(&self) -> Option<&str> {
        self.world.as_deref()
    }

    /// Whether the URL carries credentials (they are never shown).
    pub fn has_credentials(&self) -> bool {
        self.credentials.is_some()
    }

    pub(crate) fn credentials(&self) -> Option<&Credentials> {
        self.credentials.as_ref()
    }

    /// The address the client dials: scheme, host and port only.
    pub(crate) fn server_address(&self) -> String {
        format!("nats://{}:{}", self.host, self.port)
    }
}

impl std::fmt::Display for NatsUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "nats://{}:{}", self.host, self.port)?;
        if let Some(world) = &self.world {
            write!(f, "/{world}")?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for NatsUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let credentials = match &self.credentials {
            None => "none",
            Some(Credentials::UserPassword { .. }) => "user and password (redacted)",
            Some(Credentials::Token(_)) => "token (redacted)",
        };
        f.debug_struct("NatsUrl").field("url", &self.to_string()).field("credentials", &credentials).finish()
    }
}

fn split_host_port(hostport: &str) -> Result<(String, u16), &'static str> {
    let (host, port) = if let Some(bracketed) = hostport.strip_prefix('[') {
        let end = bracketed.find(']').ok_or("its IPv6 address has no closing ]")?;
        let host = &bracketed[..end];
        if host.is_empty() || !host.chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.') {
            return Err("its IPv6 address is not one");
        }
        let after = &bracketed[end + 1..];
        let port = match after.strip_prefix(':') {
            Some(port) => Some(port),
            None if after.is_empty() => None,
            None => return Err("something follows its IPv6 address that is not :PORT"),
        };
        (format!("[{host}]"), port)
    } else {
        let (host, port) = match hostport.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (hostport, None),
        };
        if host.is_empty() {
            return Err("it has no host");
        }
        if host.len() > 253 || !host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_') {
            return Err("its host is not a name or an address (a-z, 0-9, '.', '-', '_')");
        }
        (host.to_ascii_lowercase(), port)
    };
    let port = match port {
        None => DEFAULT_PORT,
        Some(port) => match port.parse::<u16>() {
            Ok(0) | Err(_) => return Err("its port is not a number from 1 to 65535"),
            Ok(port) => port,
        },
    };
    Ok((host, port))
}

/// `%XX` sequences decoded; `None` if one is malformed or the result is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A refused URL as errors show it: clipped, with everything before the last `@` of the
/// authority replaced, so a malformed URL does not leak its credentials either.
fn shown_without_credentials(text: &str) -> String {
    let (scheme, rest) = match text.find("://") {
        Some(at) => (&text[..at + 3], &text[at + 3..]),
        None => ("", text),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let shown = match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}[redacted]@{}", &rest[at + 1..]),
        None => text.to_string(),
    };
    crate::clip::shown(&shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_port_and_default_port() {
        let url = NatsUrl::parse("nats://127.0.0.1:4333").unwrap();
        assert_eq!((url.host(), url.port(), url.world()), ("127.0.0.1", 4333, None));
        let url = NatsUrl::parse("nats://Nats.Example").unwrap();
        assert_eq!((url.host(), url.port()), ("nats.example", DEFAULT_PORT));
        let url = NatsUrl::parse("nats://[::1]:5000/main").unwrap();
        assert_eq!((url.host(), url.port(), url.world()), ("[::1]", 5000, Some("main")));
        assert_eq!(url.to_string(), "nats://[::1]:5000/main");
        assert_eq!(NatsUrl::parse("nats://h/").unwrap().world(), None);
    }

    #[test]
    fn credentials_are_parsed_and_never_shown() {
        let url = NatsUrl::parse("nats://alice:s%40cr3t-pass@host:4222/w-1").unwrap();
        assert!(url.credentials() == Some(&Credentials::UserPassword { user: "alice".into(), password: "s@cr3t-pass".into() }));
        assert_eq!(url.world(), Some("w-1"));
        for shown in [url.to_string(), format!("{url:?}"), url.server_address()] {
            assert!(!shown.contains("alice") && !shown.contains("cr3t"), "{shown}");
        }
        let url = NatsUrl::parse("nats://tok3n-value@host").unwrap();
        assert!(url.credentials() == Some(&Credentials::Token("tok3n-value".into())));
        assert!(!format!("{url} {url:?}").contains("tok3n"));
    }

    #[test]
    fn refusals_name_the_url_without_credentials() {
        for (text, why) in [
            ("http://h", "nats://"),
            ("nats://", "no host"),
            ("nats://user:hunter22@", "no host"),
            ("nats://user:hunter22@h:0", "port"),
            ("nats://user:hunter22@h:99999", "port"),
            ("nats://user:hunter22@h:4222?x=1", "query"),
            ("nats://user:hunter22@h/Bad.World", "world"),
            ("nats://user:hunter22@h/-x", "world"),
            ("nats://user:hunter22@h w", "host"),
            ("nats://user:hunter2%zz@h", "percent"),
            ("nats://:hunter22@h", "user name is empty"),
        ] {
            let error = NatsUrl::parse(text).unwrap_err();
            let shown = error.to_string();
            assert!(shown.contains(why), "{text}: {shown}");
            assert!(!shown.contains("hunter2"), "{text}: {shown}");
        }
        let long = format!("nats://{}", "a".repeat(5000));
        assert!(NatsUrl::parse(&long).unwrap_err().to_string().len() < 400);
    }
}
