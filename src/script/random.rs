//! `math.random` and `math.randomseed` with their state in Rust, so the engine can save and
//! restore it (Luau keeps its generator inside the VM, where nothing can read it).
//!
//! The generator is Luau's own, bit for bit (`VM/src/lmathlib.cpp`): PCG32 with increment 105,
//! seeded by `pcg32_seed`; `random()` builds a double from two draws (`ldexp(lo | hi << 32, -64)`);
//! `random(u)` and `random(l, u)` reduce one draw by multiply-and-shift. Arguments go through
//! `luaL_checkinteger`'s conversion (numbers and numeric strings, truncated to a C `int`), and
//! bad arguments raise Luau's messages as plain string errors located at the caller, so scripts
//! see exactly what they saw with the built-in functions (a `pcall` gets the same string). The
//! argument checks are Luau code around three small Rust functions: only Luau can raise a plain
//! string error at its caller's line.
//!
//! Nothing here is hot beyond one call per `math.random`.

use std::cell::Cell;
use std::rc::Rc;

use mlua::{Function, Lua, Table};
use serde::{Deserialize, Serialize};

/// `PCG32_INC` in lmathlib.cpp.
const PCG32_INC: u64 = 105;
const PCG32_MULTIPLIER: u64 = 6_364_136_223_846_793_005;

/// Luau's `math.random` generator state (one `uint64_t`, `global_State::rngstate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LuauRandom {
    state: u64,
}

/// Why `random(u)` or `random(l, u)` refused its arguments (Luau's `luaL_argcheck` messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RandomRangeError {
    #[error("interval is empty")]
    Empty,
    /// `u - l` is `UINT_MAX`: the range would not fit the reduction.
    #[error("interval is too large")]
    TooLarge,
}

impl LuauRandom {
    /// `pcg32_seed(&state, seed)` for `math.randomseed(seed)`: the C `int` widened to
    /// `uint64_t` (sign-extended, as C converts it).
    pub fn seeded(seed: i32) -> Self {
        let mut rng = LuauRandom { state: 0 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(i64::from(seed) as u64);
        rng.next_u32();
        rng
    }

    /// A generator at a saved state.
    pub fn from_state(state: u64) -> Self {
        LuauRandom { state }
    }

    pub fn state(self) -> u64 {
        self.state
    }

    /// `pcg32_random`.
    fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(PCG32_MULTIPLIER).wrapping_add(PCG32_INC | 1);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// `math.random()`: a double in [0, 1] from 64 random bits (the conversion rounds to
    /// nearest, as C's `double(uint64_t)` does; `ldexp` by -64 is exact).
    pub fn float(&mut self) -> f64 {
        let lo = self.next_u32();
        let hi = self.next_u32();
        (u64::from(lo) | (u64::from(hi) << 32)) as f64 * (-64f64).exp2()
    }

    /// `math.random(u)`: an integer in [1, u].
    pub fn below(&mut self, u: i32) -> Result<i32, RandomRangeError> {
        if u < 1 {
            return Err(RandomRangeError::Empty);
        }
        let x = u64::from(u as u32) * u64::from(self.next_u32());
        // x >> 32 < u, so this is at most u.
        Ok(1 + (x >> 32) as i32)
    }

    /// `math.random(l, u)`: an integer in [l, u].
    pub fn between(&mut self, l: i32, u: i32) -> Result<i32, RandomRangeError> {
        if l > u {
            return Err(RandomRangeError::Empty);
        }
        let span = (u as u32).wrapping_sub(l as u32);
        if span == u32::MAX {
            return Err(RandomRangeError::TooLarge);
        }
        let x = u64::from(span + 1) * u64::from(self.next_u32());
        // `int(l + (x >> 32))`: the sum is taken in uint64_t, then cut to the low 32 bits.
        Ok((l as u32).wrapping_add((x >> 32) as u32) as i32)
    }
}

/// `luai_num2int`, a C `(int)` cast of a double, as it runs on x86-64 (`cvttsd2si`): truncation
/// toward zero, and `INT_MIN` for NaN and anything outside the `int` range (C leaves that
/// undefined; this is what Luau builds do on the machines the engine runs on).
pub fn num2int(d: f64) -> i32 {
    if d > -2_147_483_649.0 && d < 2_147_483_648.0 { d as i32 } else { i32::MIN }
}

/// The Luau side: arity and argument checks with Luau's messages, around the Rust draws. The
/// chunk's arguments are the three draws and the seeding function; it returns `random` and
/// `randomseed`.
const WRAPPERS: &str = r##"
local draw_float, draw_below, draw_between, seed_with = ...
local select, type, typeof, tonumber, error = select, type, typeof, tonumber, error

-- luaL_checkinteger's acceptance: a number, or a string that converts to one. Errors name the
-- caller of math.random (level 3: this function, then the math function, then its caller).
local function integer(value, position, name)
	if type(value) == "number" then
		return value
	end
	local number = if type(value) == "string" then tonumber(value) else nil
	if number ~= nil then
		return number
	end
	error(`invalid argument #{position} to '{name}' (number expected, got {typeof(value)})`, 3)
end

local function random(...)
	local count = select("#", ...)
	if count == 0 then
		return draw_float()
	elseif count == 1 then
		local result, problem = draw_below(integer((...), 1, "random"))
		if problem ~= nil then
			error(`invalid argument #1 to 'random' ({problem})`, 2)
		end
		return result
	elseif count == 2 then
		local low, high = ...
		local result, problem = draw_between(integer(low, 1, "random"), integer(high, 2, "random"))
		if problem ~= nil then
			error(`invalid argument #2 to 'random' ({problem})`, 2)
		end
		return result
	end
	error("wrong number of arguments", 2)
end

local function randomseed(...)
	if select("#", ...) == 0 then
		error("missing argument #1 to 'randomseed' (number expected)", 2)
	end
	seed_with(integer((...), 1, "randomseed"))
end

return random, randomseed
"##;

/// Replaces `math.random` and `math.randomseed` in `lua` with functions drawing from `rng`.
/// Call before the VM is sandboxed (the `math` table becomes read-only then).
pub fn install(lua: &Lua, rng: Rc<Cell<LuauRandom>>) -> mlua::Result<()> {
    let r = Rc::clone(&rng);
    let draw_float = lua.create_function(move |_, ()| {
        let mut g = r.get();
        let value = g.float();
        r.set(g);
        Ok(value)
    })?;
    let r = Rc::clone(&rng);
    let draw_below = lua.create_function(move |_, u: f64| {
        let mut g = r.get();
        let drawn = g.below(num2int(u));
        r.set(g);
        Ok(split(drawn))
    })?;
    let r = Rc::clone(&rng);
    let draw_between = lua.create_function(move |_, (l, u): (f64, f64)| {
        let mut g = r.get();
        let drawn = g.between(num2int(l), num2int(u));
        r.set(g);
        Ok(split(drawn))
    })?;
    let seed_with = lua.create_function(move |_, seed: f64| {
        rng.set(LuauRandom::seeded(num2int(seed)));
        Ok(())
    })?;
    let (random, randomseed): (Function, Function) =
        lua.load(WRAPPERS).set_name("=math").call((draw_float, draw_below, draw_between, seed_with))?;
    let math: Table = lua.globals().get("math")?;
    math.set("random", random)?;
    math.set("randomseed", randomseed)
}

/// A draw as the wrapper reads it: the integer, or nothing and the problem.
fn split(drawn: Result<i32, RandomRangeError>) -> (Option<f64>, Option<String>) {
    match drawn {
        Ok(value) => (Some(f64::from(value)), None),
        Err(e) => (None, Some(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain Luau VM with the built-in generator, and one with ours, both seeded by `seed`.
    fn pair(seed: &str) -> (Lua, Lua) {
        let builtin = Lua::new();
        let ours = Lua::new();
        install(&ours, Rc::new(Cell::new(LuauRandom::from_state(0)))).unwrap();
        for lua in [&builtin, &ours] {
            lua.load(format!("math.randomseed({seed})")).exec().unwrap();
        }
        (builtin, ours)
    }

    /// Runs `code` (which returns a list) in both VMs and compares the lists bit for bit.
    fn same(seed: &str, code: &str) {
        let (builtin, ours) = pair(seed);
        let run = |lua: &Lua| -> Vec<u64> {
            let values: Vec<f64> = lua.load(code).set_name("@check.luau").eval().unwrap();
            values.into_iter().map(f64::to_bits).collect()
        };
        let (expected, actual) = (run(&builtin), run(&ours));
        assert!(!expected.is_empty());
        assert_eq!(actual, expected, "seed {seed}: {code}");
    }

    const DRAWS: &str = r#"
        local out = {}
        for i = 1, 2000 do
            out[#out + 1] = math.random()
            out[#out + 1] = math.random(6)
            out[#out + 1] = math.random(i)
            out[#out + 1] = math.random(2147483647)
            out[#out + 1] = math.random(-5, 5)
            out[#out + 1] = math.random(-2147483647, 2147483647)
            out[#out + 1] = math.random(-2147483648, 2147483646)
            out[#out + 1] = math.random(7, 7)
            out[#out + 1] = math.random(i * 1.37)
            out[#out + 1] = math.random(-i * 1.5, i * 2.25)
            out[#out + 1] = math.random("12")
            out[#out + 1] = math.random(" 3 ", "0x10")
        end
        return out
    "#;

    #[test]
    fn draws_match_the_builtin_luau_generator_for_every_arity() {
        for seed in ["0", "1", "42", "-1", "-2147483648", "2147483647", "123456789", "7.9", "-7.9", "'99'"] {
            same(seed, DRAWS);
        }
    }

    #[test]
    fn seeding_converts_like_a_c_int_cast() {
        // Beyond the int range and NaN: what `(int)` gives on x86-64.
        if cfg!(target_arch = "x86_64") {
            for seed in ["2^31", "2^40", "-2^31 - 1", "4503599627370495", "0/0", "math.huge", "-math.huge"] {
                same(seed, "local out = {} for i = 1, 50 do out[i] = math.random() end return out");
            }
            same("1", "return { math.random(2^31 + 5, 2^31 + 5) }");
        }
        assert_eq!(num2int(-0.9), 0);
        assert_eq!(num2int(2_147_483_647.9), i32::MAX);
        assert_eq!(num2int(-2_147_483_648.9), i32::MIN);
    }

    #[test]
    fn the_state_saved_mid_sequence_continues_the_sequence() {
        let mut a = LuauRandom::seeded(42);
        for _ in 0..17 {
            a.float();
        }
        let mut b = LuauRandom::from_state(a.state());
        assert_eq!((0..100).map(|_| a.below(1000)).collect::<Vec<_>>(), (0..100).map(|_| b.below(1000)).collect::<Vec<_>>());
    }

    #[test]
    fn bad_arguments_raise_luau_s_own_messages() {
        // (a call on a script line, the same call's pcall arguments: no Luau frame to locate)
        let calls = [
            ("math.random(0)", "math.random, 0"),
            ("math.random(-3)", "math.random, -3"),
            ("math.random(5, 4)", "math.random, 5, 4"),
            ("math.random(-2147483648, 2147483647)", "math.random, -2147483648, 2147483647"),
            ("math.random(1, 2, 3)", "math.random, 1, 2, 3"),
            ("math.random(nil)", "math.random, nil"),
            ("math.random({})", "math.random, {}"),
            ("math.random('x')", "math.random, 'x'"),
            ("math.random(1, nil)", "math.random, 1, nil"),
            ("math.random(1, true)", "math.random, 1, true"),
            ("math.random(nil, 1)", "math.random, nil, 1"),
            ("math.random(vector.create(1, 2, 3))", "math.random, vector.create(1, 2, 3)"),
            ("math.randomseed()", "math.randomseed"),
            ("math.randomseed(nil)", "math.randomseed, nil"),
            ("math.randomseed('seed')", "math.randomseed, 'seed'"),
        ];
        let (builtin, ours) = pair("1");
        for (call, args) in calls {
            let code = format!(
                "local ok, e = pcall(function()\n{call}\nend)\nlocal ok2, e2 = pcall({args})\nreturn {{ tostring(ok), type(e), tostring(e), tostring(ok2), type(e2), tostring(e2) }}"
            );
            let run = |lua: &Lua| -> Vec<String> { lua.load(&code).set_name("@check.luau").eval().unwrap() };
            let expected = run(&builtin);
            assert_eq!(expected[0], "false", "{call} fails in Luau: {expected:?}");
            assert_eq!(run(&ours), expected, "{call}");
        }
        // The refused calls drew nothing: both generators are still in step.
        let next = |lua: &Lua| -> Vec<f64> { lua.load("return { math.random(), math.random(100) }").eval().unwrap() };
        assert_eq!(next(&ours), next(&builtin));
    }
}
