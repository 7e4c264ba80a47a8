//! `SpatialIndex`: the batched radius query that agent perception and `scene.queryEntities`
//! share — a uniform grid over entity positions stored as CSR (cell offsets + entity entries
//! packed in cell order), rebuilt once per batch, then every query answered in parallel.
//!
//! Plain data in and out (`EntityId`, `[f64; 3]`): no ECS, physics or rayon type crosses this
//! boundary, and `World::query_near_batch` does the gathering. The answer never depends on the
//! grid: a hit is a point whose `distance` (computed exactly as `World::query` always has,
//! `sqrt(dx² + dy² + dz²)` in f64) is `<= radius`, and each query's hits are sorted by distance
//! then id, so the result equals the brute-force oracle (`brute_force`) bit for bit, whatever
//! the cell size or the rayon thread count. The grid only decides which points are looked at:
//! each query scans the rows of cells its padded bounding box overlaps, each row one contiguous
//! slice of the packed entries.
//!
//! Memory is bounded by the input, never by a radius: the cell count is capped at about twice
//! the point count, so a radius larger than the world just scans every cell. Points too far out
//! to grid (beyond `GRID_COORD_LIMIT`, far outside the world's ±1e6) are kept on a side list
//! every query scans; non-finite points can never be within a finite radius and are dropped.
//! Hot: `rebuild` (one counting sort, no allocation once the buffers have grown) and
//! `query_into` (no allocation but the hits).

use rayon::prelude::*;

use super::EntityId;

/// A point further than this from the origin on any axis goes on the side list instead of the
/// grid, so the grid's extent (and its cell arithmetic) stays finite and precise.
const GRID_COORD_LIMIT: f64 = 1e15;
/// The grid never has more cells than this, whatever the point count.
const MAX_CELLS: usize = 1 << 22;
/// Fewest cells a grid may use (a handful of points still gets a useful grid).
const MIN_CELL_BUDGET: usize = 64;
/// Cells per query radius along an axis: a query scans about `(2·k + 1)²` cells of side `r/k`
/// in a planar layout, so k = 2 reads ~(2.5 r)² of area for the circle's π r², against (3 r)²
/// at k = 1, for a few more (cheap, contiguous) row starts.
const CELLS_PER_RADIUS: f64 = 2.0;
/// Queries one rayon task takes at least: an optimized query here is ~0.5 µs (200 × 2000
/// batch), about what handing a task to another thread costs, so tasks of one query would
/// spend as much on rayon as on the work.
const MIN_QUERIES_PER_TASK: usize = 16;

/// One radius query: the points within `radius` of `center`, except `exclude` (the asker); only
/// the `nearest` n of them when given (the first n of the full answer, whose order is total).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearQuery {
    pub center: [f64; 3],
    pub radius: f64,
    pub exclude: Option<EntityId>,
    pub nearest: Option<usize>,
}

/// One hit of a `NearQuery`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearHit {
    pub id: EntityId,
    pub distance: f64,
    /// Where the entity is (as indexed), so a caller needs no second lookup.
    pub position: [f64; 3],
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpatialError {
    #[error("query {index}: radius {radius} is not a finite number >= 0")]
    BadRadius { index: usize, radius: f64 },
    #[error("query {index}: center [{}, {}, {}] is not finite", center[0], center[1], center[2])]
    BadCenter { index: usize, center: [f64; 3] },
    #[error("{count} points is above the maximum of {max} a spatial index can hold")]
    TooManyPoints { count: usize, max: usize },
}

/// The distance `World::query` has always reported: f64, summed in x, y, z order.
pub(crate) fn distance(p: [f64; 3], c: [f64; 3]) -> f64 {
    distance_squared(p, c).sqrt()
}

fn distance_squared(p: [f64; 3], c: [f64; 3]) -> f64 {
    let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
}

/// Hits nearest first; exact distance ties by id, so the order is total and a sort of the same
/// set always gives the same bytes. A hit's distance is >= +0 (never -0: a sum of squares), and
/// there the bit pattern orders as the value, so one u128 key holds both: a third fewer
/// instructions than comparing the f64 then the id (callgrind, 200 × 2000 batch).
fn sort_hits(hits: &mut [NearHit]) {
    hits.sort_unstable_by_key(hit_order);
}

/// Distance, then id, as one key (distances are non-negative, so their bits order as they do).
fn hit_order(h: &NearHit) -> u128 {
    (u128::from(h.distance.to_bits()) << 64) | u128::from(h.id.0)
}

/// Checks every query before any work, naming the first bad one.
fn validate(queries: &[NearQuery]) -> Result<(), SpatialError> {
    for (index, q) in queries.iter().enumerate() {
        if !(q.radius.is_finite() && q.radius >= 0.0) {
            return Err(SpatialError::BadRadius { index, radius: q.radius });
        }
        if !q.center.iter().all(|c| c.is_finite()) {
            return Err(SpatialError::BadCenter { index, center: q.center });
        }
    }
    Ok(())
}

/// The oracle: every query against every point, the same distance, filter and order as the
/// grid. O(queries × points); for tests and as the bench's baseline.
pub fn brute_force(points: &[(EntityId, [f64; 3])], queries: &[NearQuery]) -> Result<Vec<Vec<NearHit>>, SpatialError> {
    validate(queries)?;
    Ok(queries
        .iter()
        .map(|q| {
            let mut hits: Vec<NearHit> = points
                .iter()
                .filter(|(id, _)| Some(*id) != q.exclude)
                .map(|&(id, p)| NearHit { id, distance: distance(p, q.center), position: p })
                .filter(|h| h.distance <= q.radius)
                .collect();
            // Its own order, not `sort_hits`, so a wrong order there cannot hide here.
            hits.sort_by(|a, b| a.distance.total_cmp(&b.distance).then(a.id.cmp(&b.id)));
            hits.truncate(q.nearest.unwrap_or(usize::MAX));
            hits
        })
        .collect())
}

/// A uniform grid over a set of points, as CSR. Keep one and rebuild it each tick: its buffers
/// only grow.
#[derive(Debug, Default)]
pub struct SpatialIndex {
    /// The grid's minimum corner (the smallest gridded coordinate per axis).
    origin: [f64; 3],
    cell: f64,
    inv_cell: f64,
    /// Cells per axis; cell (x, y, z) is entry `(y · dims[2] + z) · dims[0] + x`, so x runs
    /// fastest and a run of x cells is one slice of the packed entries.
    dims: [usize; 3],
    /// `offsets[c]..offsets[c + 1]` are cell `c`'s entries; `cell_count + 1` long.
    offsets: Vec<u32>,
    /// Entries in cell order, input order within a cell.
    ids: Vec<EntityId>,
    positions: Vec<[f64; 3]>,
    /// Finite points beyond `GRID_COORD_LIMIT`, scanned by every query.
    outlier_ids: Vec<EntityId>,
    outlier_positions: Vec<[f64; 3]>,
    /// Scratch: each input point's cell (`u32::MAX` when not gridded).
    cell_of: Vec<u32>,
}

impl SpatialIndex {
    pub fn new() -> Self {
        Self::default()
    }

    /// Cells in the current grid.
    pub fn cell_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Edge of a cell in the current grid.
    pub fn cell_size(&self) -> f64 {
        self.cell
    }

    /// Answers a batch: rebuilds the grid over `points` (cells sized from the largest radius)
    /// and runs every query in parallel. `out[i]` holds query `i`'s hits; `out`'s vectors are
    /// reused, so a caller that keeps it allocates nothing once warmed up.
    pub fn query_batch_into(
        &mut self,
        points: &[(EntityId, [f64; 3])],
        queries: &[NearQuery],
        out: &mut Vec<Vec<NearHit>>,
    ) -> Result<(), SpatialError> {
        validate(queries)?;
        let largest = queries.iter().map(|q| q.radius).fold(0.0, f64::max);
        self.rebuild(points, largest)?;
        out.truncate(queries.len());
        out.resize_with(queries.len(), Vec::new);
        let index = &*self;
        let answer = |(hits, q): (&mut Vec<NearHit>, &NearQuery)| {
            hits.clear();
            index.query_into(q, hits);
        };
        // A batch of one task runs here: handing it to the pool (this thread is not one of its
        // workers) costs a wake-up and a wait that are more than the work.
        if queries.len() <= MIN_QUERIES_PER_TASK {
            out.iter_mut().zip(queries).for_each(answer);
        } else {
            out.par_iter_mut().zip(queries.par_iter()).with_min_len(MIN_QUERIES_PER_TASK).for_each(answer);
        }
        Ok(())
    }

    /// `query_batch_into` into fresh vectors.
    pub fn query_batch(&mut self, points: &[(EntityId, [f64; 3])], queries: &[NearQuery]) -> Result<Vec<Vec<NearHit>>, SpatialError> {
        let mut out = Vec::new();
        self.query_batch_into(points, queries, &mut out)?;
        Ok(out)
    }

    /// Rebuilds the grid over `points` with cells of about `radius / CELLS_PER_RADIUS` (coarser
    /// when that would exceed the cell budget; any size when `radius` is 0 or not finite).
    pub fn rebuild(&mut self, points: &[(EntityId, [f64; 3])], radius: f64) -> Result<(), SpatialError> {
        let max_points = u32::MAX as usize - 1;
        if points.len() > max_points {
            return Err(SpatialError::TooManyPoints { count: points.len(), max: max_points });
        }
        self.outlier_ids.clear();
        self.outlier_positions.clear();
        // False for NaN too. `cell_of` first marks the gridded points (0) for the second pass.
        let gridded = |p: &[f64; 3]| (p[0].abs() <= GRID_COORD_LIMIT) & (p[1].abs() <= GRID_COORD_LIMIT) & (p[2].abs() <= GRID_COORD_LIMIT);
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        self.cell_of.clear();
        for (id, p) in points {
            if gridded(p) {
                self.cell_of.push(0);
                for a in 0..3 {
                    if p[a] < lo[a] {
                        lo[a] = p[a];
                    }
                    if p[a] > hi[a] {
                        hi[a] = p[a];
                    }
                }
            } else {
                self.cell_of.push(u32::MAX);
                if p.iter().all(|c| c.is_finite()) {
                    self.outlier_ids.push(*id);
                    self.outlier_positions.push(*p);
                }
            }
        }
        if lo[0] > hi[0] {
            // Nothing gridded: one empty cell keeps the query arithmetic uniform.
            (lo, hi) = ([0.0; 3], [0.0; 3]);
        }
        let extent = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
        let widest = extent[0].max(extent[1]).max(extent[2]);
        let budget = points.len().saturating_mul(2).clamp(MIN_CELL_BUDGET, MAX_CELLS) as f64;
        let wanted = if radius.is_finite() && radius > 0.0 { radius / CELLS_PER_RADIUS } else { 0.0 };
        // The floor keeps the doubling loop short (at most ~20 rounds from 1e-6 of the extent)
        // and the cell non-zero when every point coincides.
        let mut cell = wanted.max(widest * 1e-6).max(f64::MIN_POSITIVE);
        let mut dims = [0.0f64; 3];
        loop {
            for a in 0..3 {
                dims[a] = (extent[a] / cell).floor() + 1.0;
            }
            if dims[0] * dims[1] * dims[2] <= budget {
                break;
            }
            cell *= 2.0;
        }
        self.origin = lo;
        self.cell = cell;
        self.inv_cell = 1.0 / cell;
        self.dims = dims.map(|d| d as usize);
        let cells = self.dims[0] * self.dims[1] * self.dims[2];

        // Counting sort, stable: count into offsets[c + 1], prefix-sum, scatter with offsets[c]
        // as the cursor (which leaves it at the start of c + 1), then shift back by one.
        self.offsets.clear();
        self.offsets.resize(cells + 1, 0);
        for (i, (_, p)) in points.iter().enumerate() {
            if self.cell_of[i] != u32::MAX {
                let c = self.cell_index(*p);
                self.cell_of[i] = c as u32;
                self.offsets[c + 1] += 1;
            }
        }
        for c in 0..cells {
            self.offsets[c + 1] += self.offsets[c];
        }
        let placed = self.offsets[cells] as usize;
        self.ids.clear();
        self.ids.resize(placed, EntityId(0));
        self.positions.clear();
        self.positions.resize(placed, [0.0; 3]);
        for (&(id, p), &c) in points.iter().zip(&self.cell_of) {
            if c != u32::MAX {
                let at = self.offsets[c as usize] as usize;
                self.ids[at] = id;
                self.positions[at] = p;
                self.offsets[c as usize] += 1;
            }
        }
        self.offsets.copy_within(0..cells, 1);
        self.offsets[0] = 0;
        Ok(())
    }

    /// The cell along one axis holding coordinate `v`, clamped into the grid. Monotonic in `v`
    /// (subtract, scale, the saturating cast and the clamp all are), which is what makes
    /// scanning `axis_cell(lo) ..= axis_cell(hi)` find every point with a coordinate in
    /// `[lo, hi]`. The cast truncates toward zero, which is the floor wherever the clamp does
    /// not decide (x86-64's baseline has no inline `floor`: it was a libm call per axis).
    fn axis_cell(&self, v: f64, axis: usize) -> usize {
        let t = ((v - self.origin[axis]) * self.inv_cell) as i64;
        t.clamp(0, self.dims[axis] as i64 - 1) as usize
    }

    fn cell_index(&self, p: [f64; 3]) -> usize {
        let [x, y, z] = [self.axis_cell(p[0], 0), self.axis_cell(p[1], 1), self.axis_cell(p[2], 2)];
        (y * self.dims[2] + z) * self.dims[0] + x
    }

    /// Appends one query's hits to `out`, sorted. The query must be valid (see `validate`).
    pub fn query_into(&self, q: &NearQuery, out: &mut Vec<NearHit>) {
        let start = out.len();
        let (c, r) = (q.center, q.radius);
        // Only candidates inside this pass to the square root; sqrt is correctly rounded, so
        // `sqrt(d²) <= r` implies `d² < r²(1 + 2ε)`, well inside the 1e-9 margin.
        let r2 = (r * (1.0 + 1e-9)) * (r * (1.0 + 1e-9));
        // Never built: no cells (and no outliers) to look at.
        if !self.offsets.is_empty() {
            // A hit's |dx| never exceeds its computed distance (in round-to-nearest
            // sqrt(x·x) = |x|, and adding squares only grows the sum) unless dx² underflows:
            // an offset below ~1e-162 squares to 0. The pad covers that, and rounding of the
            // box's own ends, with room to spare.
            let pad = (c.iter().fold(0.0f64, |m, v| m.max(v.abs())) + r) * 1e-9 + 1e-150;
            let lo: [usize; 3] = std::array::from_fn(|a| self.axis_cell(c[a] - r - pad, a));
            let hi: [usize; 3] = std::array::from_fn(|a| self.axis_cell(c[a] + r + pad, a));
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    let row = (y * self.dims[2] + z) * self.dims[0];
                    let run = self.offsets[row + lo[0]] as usize..self.offsets[row + hi[0] + 1] as usize;
                    scan(q, r2, &self.ids[run.clone()], &self.positions[run], out);
                }
            }
        }
        scan(q, r2, &self.outlier_ids, &self.outlier_positions, out);
        // With a limit, the nearest are selected first and only they are sorted: a radius that
        // takes in the whole world costs a linear pass, not a sort of every entity.
        if let Some(n) = q.nearest
            && out.len() - start > n
        {
            if n == 0 {
                out.truncate(start);
                return;
            }
            out[start..].select_nth_unstable_by_key(n - 1, hit_order);
            out.truncate(start + n);
        }
        sort_hits(&mut out[start..]);
    }
}

/// Appends the hits of `q` among one run of entries (ids and positions side by side) to `out`.
fn scan(q: &NearQuery, r2: f64, ids: &[EntityId], positions: &[[f64; 3]], out: &mut Vec<NearHit>) {
    for (&id, &p) in ids.iter().zip(positions) {
        let d2 = distance_squared(p, q.center);
        if d2 <= r2 {
            let distance = d2.sqrt();
            if distance <= q.radius && Some(id) != q.exclude {
                out.push(NearHit { id, distance, position: p });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// splitmix64: a seeded stream, so a failing world can be rebuilt from its seed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        /// Uniform in [lo, hi).
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Entity positions are f32; the index sees them widened, as `World` passes them.
    fn widen(p: [f64; 3]) -> [f64; 3] {
        p.map(|v| f64::from(v as f32))
    }

    /// Ids in a scrambled order, so input order and id order differ.
    fn scrambled_points(rng: &mut Rng, positions: Vec<[f64; 3]>) -> Vec<(EntityId, [f64; 3])> {
        let mut points: Vec<_> = positions.into_iter().enumerate().map(|(i, p)| (EntityId(i as u64 + 1), p)).collect();
        for i in (1..points.len()).rev() {
            points.swap(i, rng.below(i + 1));
        }
        points
    }

    /// A world of one of four layouts: a uniform cube, a flat "density scene" square, tight
    /// clusters with exact duplicates, an integer lattice (everything on cell boundaries).
    fn random_world(rng: &mut Rng, n: usize, layout: usize) -> Vec<(EntityId, [f64; 3])> {
        let positions = (0..n)
            .map(|i| match layout {
                0 => widen([rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)]),
                1 => widen([rng.range(-100.0, 100.0), rng.range(0.0, 2.0), rng.range(-100.0, 100.0)]),
                2 => {
                    let cluster = (i % 5) as f64 * 20.0;
                    if i % 3 == 0 {
                        [cluster, 0.0, cluster]
                    } else {
                        widen([cluster + rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), cluster])
                    }
                }
                _ => [rng.below(12) as f64 - 6.0, rng.below(3) as f64, rng.below(12) as f64 - 6.0],
            })
            .collect();
        scrambled_points(rng, positions)
    }

    fn random_queries(rng: &mut Rng, points: &[(EntityId, [f64; 3])], count: usize) -> Vec<NearQuery> {
        (0..count)
            .map(|_| {
                let radius = match rng.below(6) {
                    0 => 0.0,
                    1 => rng.range(0.0, 2.0),
                    2 => rng.below(8) as f64,
                    3 => 1e7,
                    _ => rng.range(0.0, 30.0),
                };
                // Some queries keep only their nearest few (0 included), ties and all.
                let nearest = if rng.below(3) == 0 { Some(rng.below(6)) } else { None };
                if !points.is_empty() && rng.below(3) > 0 {
                    let (id, center) = points[rng.below(points.len())];
                    NearQuery { center, radius, exclude: Some(id), nearest }
                } else {
                    let center = [rng.range(-120.0, 120.0), rng.range(-10.0, 10.0), rng.range(-120.0, 120.0)];
                    NearQuery { center, radius, exclude: None, nearest }
                }
            })
            .collect()
    }

    /// Bytes of a batch result, to compare runs bit for bit.
    fn serialize(batch: &[Vec<NearHit>]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for hits in batch {
            bytes.extend_from_slice(&(hits.len() as u64).to_le_bytes());
            for h in hits {
                bytes.extend_from_slice(&h.id.0.to_le_bytes());
                bytes.extend_from_slice(&h.distance.to_bits().to_le_bytes());
            }
        }
        bytes
    }

    fn grid(points: &[(EntityId, [f64; 3])], queries: &[NearQuery]) -> Vec<Vec<NearHit>> {
        SpatialIndex::new().query_batch(points, queries).unwrap()
    }

    fn ids(hits: &[NearHit]) -> Vec<u64> {
        hits.iter().map(|h| h.id.0).collect()
    }

    #[test]
    fn random_worlds_match_the_brute_force_oracle() {
        let mut index = SpatialIndex::new();
        let mut out = Vec::new();
        for seed in 0..120u64 {
            let mut rng = Rng(seed);
            let n = [0, 1, 7, 60, 400, 1500][seed as usize % 6];
            let points = random_world(&mut rng, n, (seed / 6) as usize % 4);
            let count = 1 + rng.below(80);
            let queries = random_queries(&mut rng, &points, count);
            // One index reused across worlds, as a tick loop does.
            index.query_batch_into(&points, &queries, &mut out).unwrap();
            let oracle = brute_force(&points, &queries).unwrap();
            assert_eq!(serialize(&out), serialize(&oracle), "seed {seed}: {n} points, {} queries", queries.len());
        }
    }

    #[test]
    fn one_and_two_threads_give_the_same_bytes() {
        let mut rng = Rng(7);
        let points = random_world(&mut rng, 5000, 1);
        let queries = random_queries(&mut rng, &points, 600);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| serialize(&grid(&points, &queries)))
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one, two);
        assert_eq!(one, serialize(&brute_force(&points, &queries).unwrap()));
    }

    #[test]
    fn exact_distance_ties_and_duplicates_sort_by_id() {
        // Ids 1..=8 placed so that input order is not id order: four points at distance 1,
        // three duplicates at distance 2 (the same position), one at the center.
        let points = vec![
            (EntityId(5), [0.0, 0.0, 1.0]),
            (EntityId(8), [2.0, 0.0, 0.0]),
            (EntityId(2), [-1.0, 0.0, 0.0]),
            (EntityId(7), [2.0, 0.0, 0.0]),
            (EntityId(4), [0.0, -1.0, 0.0]),
            (EntityId(3), [0.0, 0.0, 0.0]),
            (EntityId(6), [2.0, 0.0, 0.0]),
            (EntityId(1), [1.0, 0.0, 0.0]),
        ];
        let q = NearQuery { center: [0.0; 3], radius: 2.0, exclude: None, nearest: None };
        let hits = &grid(&points, &[q])[0];
        assert_eq!(ids(hits), vec![3, 1, 2, 4, 5, 6, 7, 8]);
        assert_eq!(hits.iter().map(|h| h.distance).collect::<Vec<_>>(), vec![0.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    }

    #[test]
    fn the_asker_is_left_out_and_nobody_else() {
        let points = vec![(EntityId(1), [0.0; 3]), (EntityId(2), [0.0; 3]), (EntityId(3), [1.0, 0.0, 0.0])];
        let q = NearQuery { center: [0.0; 3], radius: 5.0, exclude: Some(EntityId(2)), nearest: None };
        assert_eq!(ids(&grid(&points, &[q])[0]), vec![1, 3]);
    }

    #[test]
    fn points_exactly_at_the_radius_and_on_cell_boundaries_are_found() {
        // Radius 2 gives cells of edge 1 from the lattice's corner: every point sits on a
        // cell boundary, and each query reaches points exactly `radius` away along an axis.
        let mut points = Vec::new();
        for x in 0..10 {
            for z in 0..10 {
                points.push((EntityId(1 + x * 10 + z), [x as f64, 0.0, z as f64]));
            }
        }
        let mut queries = Vec::new();
        for (x, z) in [(0.0, 0.0), (9.0, 9.0), (0.0, 9.0), (4.0, 4.0), (4.5, 4.5), (2.0, 9.5), (-2.0, 0.0), (11.0, 9.0)] {
            queries.push(NearQuery { center: [x, 0.0, z], radius: 2.0, exclude: None, nearest: None });
        }
        let out = grid(&points, &queries);
        assert_eq!(serialize(&out), serialize(&brute_force(&points, &queries).unwrap()));
        // Corner (0,0): the 6 lattice points with x² + z² <= 4, two of them exactly at 2.
        assert_eq!(ids(&out[0]), vec![1, 2, 11, 12, 3, 21]);
        // Outside the grid, exactly 2 away from the corner point (0, 0, 0) only.
        assert_eq!(ids(&out[6]), vec![1]);
        assert_eq!(out[6][0].distance, 2.0);
    }

    #[test]
    fn a_radius_larger_than_the_world_finds_everything_in_bounded_memory() {
        let mut rng = Rng(3);
        let points = random_world(&mut rng, 300, 0);
        let mut index = SpatialIndex::new();
        for radius in [1e6, 1e300] {
            let q = NearQuery { center: [1e5, 0.0, 0.0], radius, exclude: None, nearest: None };
            let out = index.query_batch(&points, &[q]).unwrap();
            assert_eq!(out[0].len(), 300, "radius {radius}");
            assert!(index.cell_count() <= 600, "{} cells for radius {radius}", index.cell_count());
        }
    }

    #[test]
    fn tiny_radii_over_a_wide_world_stay_within_the_cell_budget() {
        let mut rng = Rng(4);
        let positions = (0..1000).map(|_| widen([rng.range(-1e6, 1e6), rng.range(-1e6, 1e6), rng.range(-1e6, 1e6)])).collect();
        let points = scrambled_points(&mut rng, positions);
        let queries: Vec<_> =
            points.iter().take(50).map(|&(_, center)| NearQuery { center, radius: 1e-3, exclude: None, nearest: None }).collect();
        let mut index = SpatialIndex::new();
        let out = index.query_batch(&points, &queries).unwrap();
        assert!(index.cell_count() <= 2000, "{} cells", index.cell_count());
        for (hits, (id, _)) in out.iter().zip(&points) {
            assert_eq!(ids(hits), vec![id.0], "each point alone within 1 mm of itself");
        }
        assert_eq!(serialize(&out), serialize(&brute_force(&points, &queries).unwrap()));
    }

    #[test]
    fn radius_zero_finds_only_coincident_points() {
        let points = vec![(EntityId(1), [1.0, 2.0, 3.0]), (EntityId(2), [1.0, 2.0, 3.0]), (EntityId(3), [1.0, 2.0, 3.000001])];
        let q = NearQuery { center: [1.0, 2.0, 3.0], radius: 0.0, exclude: Some(EntityId(1)), nearest: None };
        let hits = &grid(&points, &[q])[0];
        assert_eq!(hits.iter().map(|h| (h.id, h.distance)).collect::<Vec<_>>(), vec![(EntityId(2), 0.0)]);
    }

    #[test]
    fn an_empty_world_or_batch_gives_empty_results() {
        let q = NearQuery { center: [0.0; 3], radius: 10.0, exclude: None, nearest: None };
        assert_eq!(grid(&[], &[q, q]), vec![Vec::new(), Vec::new()]);
        assert_eq!(grid(&[(EntityId(1), [0.0; 3])], &[]), Vec::<Vec<NearHit>>::new());
        // An index never built answers nothing rather than panicking.
        let mut hits = Vec::new();
        SpatialIndex::new().query_into(&q, &mut hits);
        assert!(hits.is_empty());
    }

    #[test]
    fn a_bad_radius_or_center_is_an_error_naming_the_query() {
        let points = vec![(EntityId(1), [0.0; 3])];
        let ok = NearQuery { center: [0.0; 3], radius: 1.0, exclude: None, nearest: None };
        for radius in [f64::NAN, -1.0, f64::INFINITY, -0.5e-300] {
            let bad = NearQuery { radius, ..ok };
            let err = SpatialIndex::new().query_batch(&points, &[ok, bad]).unwrap_err();
            assert!(matches!(err, SpatialError::BadRadius { index: 1, .. }), "{err}");
            assert_eq!(brute_force(&points, &[ok, bad]).unwrap_err().to_string(), err.to_string());
        }
        let err = SpatialIndex::new().query_batch(&points, &[NearQuery { center: [0.0, f64::NAN, 0.0], ..ok }]).unwrap_err();
        assert_eq!(err.to_string(), "query 0: center [0, NaN, 0] is not finite");
        assert_eq!(SpatialError::BadRadius { index: 3, radius: f64::NAN }.to_string(), "query 3: radius NaN is not a finite number >= 0");
    }

    #[test]
    fn far_and_non_finite_points_match_the_oracle() {
        let points = vec![
            (EntityId(1), [0.0; 3]),
            (EntityId(2), [1e20, 0.0, 0.0]),
            (EntityId(3), [f64::NAN, 0.0, 0.0]),
            (EntityId(4), [f64::INFINITY, 0.0, 0.0]),
            (EntityId(5), [-1e300, 1e300, 0.0]),
            (EntityId(6), [3.0, 4.0, 0.0]),
        ];
        let queries = [
            NearQuery { center: [0.0; 3], radius: 5.0, exclude: None, nearest: None },
            NearQuery { center: [0.0; 3], radius: 1e21, exclude: None, nearest: None },
            NearQuery { center: [1e20, 1.0, 0.0], radius: 2.0, exclude: None, nearest: None },
            NearQuery { center: [0.0; 3], radius: f64::MAX, exclude: Some(EntityId(1)), nearest: None },
        ];
        let out = grid(&points, &queries);
        assert_eq!(serialize(&out), serialize(&brute_force(&points, &queries).unwrap()));
        assert_eq!(ids(&out[0]), vec![1, 6]);
        assert_eq!(ids(&out[1]), vec![1, 6, 2]);
        assert_eq!(ids(&out[2]), vec![2]);
    }

    #[test]
    fn a_hit_whose_offset_underflows_is_found_across_a_cell_boundary() {
        // Offsets below ~1e-162 square to 0, so a point 2e-163 from the center is at distance
        // 0 — within radius 0 — while lying past `center + radius`: only the query box's pad
        // reaches its cell. The world is tiny so that cells are tinier still.
        let extremes = [(EntityId(1), [0.0; 3]), (EntityId(2), [1e-155, 0.0, 0.0])];
        let mut index = SpatialIndex::new();
        index.rebuild(&extremes, 0.0).unwrap();
        let (boundary, center, beyond) = (1..64)
            .map(|k| k as f64 * index.cell_size())
            .map(|b| (b, b - 1e-163, b + 1e-163))
            .find(|&(_, c, p)| index.axis_cell(c, 0) != index.axis_cell(p, 0))
            .expect("a cell boundary between two points 2e-163 apart");
        let points = [extremes[0], extremes[1], (EntityId(3), [beyond, 0.0, 0.0])];
        let q = NearQuery { center: [center, 0.0, 0.0], radius: 0.0, exclude: None, nearest: None };
        let out = index.query_batch(&points, &[q]).unwrap();
        assert_eq!(out[0].iter().map(|h| (h.id, h.distance)).collect::<Vec<_>>(), vec![(EntityId(3), 0.0)], "boundary {boundary:e}");
        assert_eq!(out, brute_force(&points, &[q]).unwrap());
    }

    #[test]
    fn rebuilding_a_same_sized_world_does_not_reallocate() {
        let mut rng = Rng(9);
        let mut index = SpatialIndex::new();
        let mut out = Vec::new();
        let points = random_world(&mut rng, 2000, 1);
        let queries = random_queries(&mut rng, &points, 100);
        index.query_batch_into(&points, &queries, &mut out).unwrap();
        let buffers = (index.ids.as_ptr(), index.positions.as_ptr(), index.offsets.as_ptr(), index.cell_of.as_ptr(), out.as_ptr());
        // The next tick: everything moved a little.
        let moved: Vec<_> = points.iter().map(|&(id, p)| (id, widen([p[0] + 0.5, p[1], p[2] - 0.25]))).collect();
        index.query_batch_into(&moved, &queries, &mut out).unwrap();
        assert_eq!((index.ids.as_ptr(), index.positions.as_ptr(), index.offsets.as_ptr(), index.cell_of.as_ptr(), out.as_ptr()), buffers);
        assert_eq!(serialize(&out), serialize(&brute_force(&moved, &queries).unwrap()));
    }
}
