//! A world's snapshots in a JetStream object store: one bucket per world
//! (`limina_snap_{world}`), each snapshot under the file name its log names it by, so reading a
//! world back from JetStream gives the same folder the file log would have had beside it.

use std::time::Duration;

use async_nats::jetstream::{object_store, stream::StorageType};
use tokio::io::AsyncReadExt as _;

use super::{JetStream, NatsError};

/// Largest snapshot fetched back (the snapshot format's own bound).
const MAX_FETCH: u64 = crate::snapshot::MAX_SNAPSHOT_BYTES;

fn bucket(world: &str) -> String {
    format!("limina_snap_{world}")
}

fn failed(js: &JetStream, world: &str, operation: &'static str, e: &dyn std::fmt::Display) -> NatsError {
    NatsError::Stream {
        world: world.to_string(),
        stream: format!("OBJ_{}", bucket(world)),
        url: js.url().to_string(),
        operation,
        message: js.message(e),
    }
}

async fn store(js: &JetStream, world: &str) -> Result<object_store::ObjectStore, NatsError> {
    let config = object_store::Config { bucket: bucket(world), storage: StorageType::File, ..Default::default() };
    js.inner.api.create_object_store(config).await.map_err(|e| failed(js, world, "opening the snapshot store", &e))
}

/// Stores the file at `path` as `name` (replacing one of that name).
pub(crate) async fn put(js: &JetStream, world: &str, name: &str, path: &std::path::Path) -> Result<(), NatsError> {
    let bucket = store(js, world).await?;
    let mut file = tokio::fs::File::open(path).await.map_err(|e| failed(js, world, "reading the snapshot to store", &e))?;
    bucket.put(name, &mut file).await.map_err(|e| failed(js, world, "storing a snapshot", &e))?;
    Ok(())
}

/// Removes `name` (a snapshot the log no longer keeps).
pub(crate) async fn remove(js: &JetStream, world: &str, name: &str) -> Result<(), NatsError> {
    let bucket = store(js, world).await?;
    bucket.delete(name).await.map_err(|e| failed(js, world, "removing a snapshot", &e))
}

/// Fetches `name` into memory; None when the store does not hold it.
pub fn fetch(js: &JetStream, world: &str, name: &str) -> Result<Option<Vec<u8>>, NatsError> {
    js.block_on("fetching a snapshot", async {
        let bucket = store(js, world).await?;
        let mut object = match tokio::time::timeout(Duration::from_secs(30), bucket.get(name)).await {
            Ok(Ok(object)) => object,
            Ok(Err(e)) if e.kind() == object_store::GetErrorKind::NotFound => return Ok(None),
            Ok(Err(e)) => return Err(failed(js, world, "fetching a snapshot", &e)),
            Err(_) => return Err(failed(js, world, "fetching a snapshot", &"no answer in 30 s")),
        };
        let mut bytes = Vec::new();
        let read = (&mut object).take(MAX_FETCH + 1).read_to_end(&mut bytes).await;
        read.map_err(|e| failed(js, world, "reading a snapshot", &e))?;
        if bytes.len() as u64 > MAX_FETCH {
            return Err(failed(js, world, "fetching a snapshot", &format!("{name} is over {MAX_FETCH} bytes")));
        }
        Ok(Some(bytes))
    })?
}
