//! `limina bench --only worlds`, its fleet part: failover time, from `kill -9` of a world's owner
//! to the first call another member of the fleet acknowledges for it. Two members share a
//! `nats-server -js` started for the run; each round starts a fresh owner, creates a world on it,
//! lets it run, kills the owner and times how long until the other member answers a write for
//! the world. Measured for a world at the reference density (the same scene as the density
//! figure, with a snapshot every 300 ticks) under the default lease, and for an empty world under
//! a short lease: the difference is what recovery costs, the rest is waiting for the lease to
//! expire (the time to live) and for the next look of the fleet (a quarter of it).

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use super::bench_worlds::{Nats, admin, start_with};

const ROUNDS: usize = 3;
/// How long a world runs on its first owner before the owner is killed.
const RUN_BEFORE_KILL: Duration = Duration::from_secs(6);
const PATIENCE: Duration = Duration::from_secs(120);

/// One world's failover: kill → the new owner holds the lease, kill → the first acknowledged write.
async fn one_round(
    exe: &Path,
    project: &Path,
    client: &reqwest::Client,
    nats: &Nats,
    ttl_ms: u64,
    round: usize,
    dense: bool,
) -> anyhow::Result<(f64, f64)> {
    let ttl = ttl_ms.to_string();
    let member = |node: String| {
        let args =
            ["--nats", nats.url.as_str(), "--fleet", "--node", node.as_str(), "--lease-ttl-ms", ttl.as_str(), "--snapshot-every", "300"];
        start_with(exe, project, &args.map(str::to_string).iter().map(String::as_str).collect::<Vec<_>>())
    };
    // The lease bucket keeps the first member's time to live: each lease has a NATS server of
    // its own (`failover`).
    let mut owner = member(format!("owner{ttl_ms}-{round}"))?;
    let standby = member(format!("standby{ttl_ms}-{round}"))?;
    let world = format!("failover{ttl_ms}x{round}");
    let from = if dense { json!({"scene": "density.lua"}) } else { json!("empty") };
    admin(client, &owner.base, reqwest::Method::POST, "/admin/worlds", Some(json!({"name": world, "from": from}))).await?;
    tokio::time::sleep(RUN_BEFORE_KILL).await;
    let _ = owner.child.kill();
    let killed = Instant::now();
    let _ = owner.child.wait();
    let mut leased = None;
    let url = format!("{}/w/{world}/mcp", standby.base);
    loop {
        anyhow::ensure!(killed.elapsed() < PATIENCE, "world {world} was not served again within {PATIENCE:?}");
        if leased.is_none()
            && let Ok(answer) = client.get(format!("{}/w/{world}/where", standby.base)).send().await
            && let Ok(text) = answer.text().await
            && text.contains(&format!("\"owner\":\"standby{ttl_ms}-{round}\""))
        {
            leased = Some(killed.elapsed().as_secs_f64());
        }
        let answer = super::bench_worlds::create_entity(client, &url, [0.0, 1.0, 0.0]).send().await;
        if let Ok(answer) = answer
            && answer.status().is_success()
            && answer.text().await.is_ok_and(|t| t.contains("\"entity\""))
        {
            let served = killed.elapsed().as_secs_f64();
            return Ok((leased.unwrap_or(served), served));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

pub(super) async fn failover(exe: &Path, project: &Path, client: &reqwest::Client) -> anyhow::Result<()> {
    for (ttl_ms, dense, what) in [(3000, true, "reference density, default lease"), (1000, false, "empty world, 1 s lease")] {
        let Some(nats) = super::bench_worlds::start_nats(&project.join(format!("fleet{ttl_ms}")))? else {
            outln!("worlds  failover: nats-server is not on PATH; failover is not measured (.ci/deps installs it)");
            return Ok(());
        };
        let mut served = Vec::new();
        let mut leased = Vec::new();
        for round in 0..ROUNDS {
            let (lease, first) = one_round(exe, project, client, &nats, ttl_ms, round, dense).await?;
            leased.push(lease);
            served.push(first);
        }
        served.sort_by(f64::total_cmp);
        leased.sort_by(f64::total_cmp);
        let median = |v: &[f64]| v[v.len() / 2];
        outln!(
            "worlds  failover: {what:<34} kill -9 -> lease taken {:.2} s, first acknowledged write {:.2} s (median of {ROUNDS}; worst {:.2} s; lease {:.1} s)",
            median(&leased),
            median(&served),
            served[served.len() - 1],
            ttl_ms as f64 / 1000.0
        );
    }
    Ok(())
}
