//! `CallQueues`: the engine thread's waiting room for work from WebSocket clients — one bounded
//! FIFO per client, served round-robin.
//!
//! Round-robin across clients (not arrival order across the server) is what makes the call
//! budget fair: a client with 60 calls queued gets one served, then every other waiting client
//! gets one, and so on, so one client's flood delays another's single call by at most one call per
//! client ahead of it. Within one client the order is the order the engine received them.
//! Everything here is plain data; the caller decides what a refused item is answered with.

use std::collections::{HashMap, VecDeque};

/// An item refused because its client's queue is full; the item comes back to be answered.
#[derive(Debug)]
pub(super) struct QueueFull<T> {
    pub item: T,
    pub limit: usize,
}

#[derive(Debug)]
pub(super) struct CallQueues<T> {
    queues: HashMap<u64, VecDeque<T>>,
    /// Clients with something queued, in the order they will be served next.
    ring: VecDeque<u64>,
    limit: usize,
    len: usize,
}

impl<T> CallQueues<T> {
    /// Queues of at most `limit` items per client.
    pub fn new(limit: usize) -> Self {
        Self { queues: HashMap::new(), ring: VecDeque::new(), limit, len: 0 }
    }

    /// Appends `item` to `client`'s queue, or hands it back when that queue is full.
    pub fn push(&mut self, client: u64, item: T) -> Result<(), QueueFull<T>> {
        let queue = self.queues.entry(client).or_default();
        if queue.len() >= self.limit {
            return Err(QueueFull { item, limit: self.limit });
        }
        if queue.is_empty() {
            self.ring.push_back(client);
        }
        queue.push_back(item);
        self.len += 1;
        Ok(())
    }

    /// The next item: the oldest of the client whose turn it is.
    pub fn pop(&mut self) -> Option<(u64, T)> {
        let client = self.ring.pop_front()?;
        let queue = self.queues.get_mut(&client)?;
        let item = queue.pop_front()?;
        self.len -= 1;
        if queue.is_empty() {
            self.queues.remove(&client);
        } else {
            self.ring.push_back(client);
        }
        Some((client, item))
    }

    /// The next item whose client's oldest is `ready`, in turn (a client whose oldest is not
    /// ready keeps it and waits for its next turn).
    pub fn pop_where(&mut self, ready: impl Fn(u64, &T) -> bool) -> Option<(u64, T)> {
        for _ in 0..self.ring.len() {
            let client = *self.ring.front()?;
            if self.queues.get(&client).and_then(VecDeque::front).is_some_and(|item| ready(client, item)) {
                return self.pop();
            }
            self.ring.rotate_left(1);
        }
        None
    }

    /// Takes out everything `client` has queued (it disconnected).
    pub fn remove(&mut self, client: u64) -> Vec<T> {
        self.ring.retain(|c| *c != client);
        let items: Vec<T> = self.queues.remove(&client).map(Vec::from).unwrap_or_default();
        self.len -= items.len();
        items
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[cfg(test)]
    pub fn queued(&self, client: u64) -> usize {
        self.queues.get(&client).map_or(0, VecDeque::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(q: &mut CallQueues<(u64, u32)>) -> Vec<(u64, u32)> {
        std::iter::from_fn(|| q.pop().map(|(_, item)| item)).collect()
    }

    #[test]
    fn a_flooding_client_cannot_starve_a_single_call() {
        let mut q = CallQueues::new(64);
        for i in 0..60 {
            q.push(1, (1, i)).unwrap();
        }
        assert_eq!(q.pop(), Some((1, (1, 0))), "the flood has started");
        q.push(2, (2, 0)).unwrap();
        let order = drain(&mut q);
        let at = order.iter().position(|&(c, _)| c == 2).unwrap();
        assert!(at <= 1, "the single call waited for {at} of the flood's calls: {order:?}");
    }

    #[test]
    fn clients_take_turns_and_each_keeps_its_own_order() {
        let mut q = CallQueues::new(64);
        for i in 0..3 {
            q.push(7, (7, i)).unwrap();
            q.push(8, (8, i)).unwrap();
        }
        q.push(9, (9, 0)).unwrap();
        assert_eq!(drain(&mut q), vec![(7, 0), (8, 0), (9, 0), (7, 1), (8, 1), (7, 2), (8, 2)]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_full_queue_hands_the_item_back_naming_the_limit() {
        let mut q = CallQueues::new(2);
        q.push(1, (1, 0)).unwrap();
        q.push(1, (1, 1)).unwrap();
        let refused = q.push(1, (1, 2)).unwrap_err();
        assert_eq!((refused.item, refused.limit), ((1, 2), 2));
        // The limit is per client: another client still gets in.
        q.push(2, (2, 0)).unwrap();
        assert_eq!((q.len(), q.queued(1), q.queued(2)), (3, 2, 1));
        // Room again once the engine has served one.
        q.pop();
        q.push(1, (1, 2)).unwrap();
    }

    #[test]
    fn a_client_whose_next_item_is_not_ready_is_passed_over_and_keeps_it() {
        let mut q = CallQueues::new(8);
        q.push(1, (1, 0)).unwrap();
        q.push(1, (1, 1)).unwrap();
        q.push(2, (2, 0)).unwrap();
        assert_eq!(q.pop_where(|_, &(c, _)| c != 1), Some((2, (2, 0))));
        assert_eq!(q.pop_where(|_, &(c, _)| c != 1), None, "nothing ready");
        assert_eq!(q.len(), 2, "nothing lost");
        assert_eq!(drain(&mut q), vec![(1, 0), (1, 1)]);
    }

    #[test]
    fn a_disconnected_clients_calls_are_taken_out() {
        let mut q = CallQueues::new(8);
        q.push(1, (1, 0)).unwrap();
        q.push(2, (2, 0)).unwrap();
        q.push(1, (1, 1)).unwrap();
        assert_eq!(q.remove(1), vec![(1, 0), (1, 1)]);
        assert_eq!(drain(&mut q), vec![(2, 0)]);
        assert_eq!(q.len(), 0);
    }
}
