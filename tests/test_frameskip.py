"""A step draws only its last frame, or its last two where observations are max-pooled
(kernels/env/env.h, env_step), and runs again drawing them all where an undrawn frame's rows would
show. Whole machine states, both frame buffers included, must then equal those of frameskip 1
playing the same actions, for every game, and when the frame cap ends an episode two frames
into a step."""
import numpy as np
import pytest
import torch

from cule import CuleEnv, _core, list_games
from cule.env import make_console
from cule.games import get_game

STEPS = 150


@pytest.mark.parametrize("game", list_games())
def test_frameskip_4_leaves_the_frames_of_frameskip_1(game):
    cap = 4 * STEPS + 2   # the last step stops after two frames
    fast = CuleEnv(game, num_envs=4, frameskip=4, max_num_frames_per_episode=cap, num_threads=1)
    slow = CuleEnv(game, num_envs=4, frameskip=1, max_num_frames_per_episode=cap, num_threads=1)
    fast.reset(seed=0)
    slow.reset(seed=0)
    rng = np.random.default_rng(0)
    playing = torch.ones(4, dtype=torch.bool)   # no episode ended yet: the two runs stay in step
    for step in range(STEPS + 1):
        actions = rng.integers(0, 18, size=4)
        _, _, terminated, truncated, _ = fast.step(actions)
        for _ in range(4 if step < STEPS else 2):
            slow.step(actions)
        ended = terminated | truncated
        compare = playing & ~(terminated & ~truncated)   # a game over mid-step: frameskip 1 restarted
        for i in compare.nonzero().flatten().tolist():
            assert torch.equal(fast.get_states()[i], slow.get_states()[i]), f"step {step}, env {i}"
        playing &= ~ended
    assert truncated.any() or not playing.any()


@pytest.mark.parametrize("game", ["alien", "qbert"])
def test_steps_run_again_after_one_that_left_a_buffer_behind(game):
    """Steps that draw only their last frame leave the other buffer behind until something needs
    it: a state taken (every 50 steps here) redraws it. These games have frames that end early
    (a life lost), so some steps run again from their start, drawing every frame, right after a
    step that left a buffer behind; observations every step and the states equal frameskip 1's.
    (Here the rerun's first frames are whole and rewrite both buffers themselves; the test below
    needs the redraw.)"""
    fast = CuleEnv(game, num_envs=8, frameskip=4, num_threads=1)
    slow = CuleEnv(game, num_envs=8, frameskip=1, num_threads=1)
    pooled = CuleEnv(game, num_envs=1, frameskip=4, maxpool=True)
    assert fast._backend._vec.last_frame_only and not pooled._backend._vec.last_frame_only
    fast.reset(seed=0)
    slow.reset(seed=0)
    rng = np.random.default_rng(0)
    playing = torch.ones(8, dtype=torch.bool)
    for step in range(400):
        actions = rng.integers(0, 18, size=8)
        obs, _, terminated, truncated, _ = fast.step(actions)
        for _ in range(4):
            slow_obs, *_ = slow.step(actions)
        playing &= ~(terminated | truncated)
        for i in playing.nonzero().flatten().tolist():
            assert torch.equal(obs[i], slow_obs[i]), f"step {step}, env {i}"
        if step % 50 == 49:
            for i in playing.nonzero().flatten().tolist():
                assert torch.equal(fast.get_states()[i], slow.get_states()[i]), f"step {step}, env {i}"
    _, after_redraw = fast._backend._vec.redo_stats()
    assert after_redraw > 0, "no step ran again after one that left a buffer behind: nothing was tested"


# Scanlines per frame after VSYNC, by frame number & 7. 250 make a whole frame; the others end
# before the last of the 210 rows shown (ystart 34), whose rows keep the frame before's pixels.
# From power-on, steps of four frames take entries 0-3, then 4-7: the first step's last two
# frames are whole, the second's last one is not (it runs again), and its frames 0 and 2, in the
# buffer the first step left behind, are short too, so that buffer's rows show in the state.
VARYING_LINES = (250, 120, 250, 250, 100, 250, 150, 120)


def varying_frames_rom(lines: tuple[int, ...] = VARYING_LINES) -> bytes:
    """A 2K ROM: clear RAM, then forever a frame of lines[n & 7] lines in colour 2n."""
    code = [
        0x78, 0xD8, 0xA2, 0xFF, 0x9A,           # sei; cld; ldx #$ff; txs
        0xA9, 0x00, 0xA2, 0x7F,                 # lda #0; ldx #$7f
        0x95, 0x80, 0xCA, 0x10, 0xFB,           # clear: sta $80,x; dex; bpl clear
        0x85, 0x01,                             # sta VBLANK: the picture on
        0xA9, 0x02, 0x85, 0x00,                 # frame ($f810): lda #2; sta VSYNC
        0x85, 0x02, 0x85, 0x02, 0x85, 0x02,     # sta WSYNC (three lines of VSYNC)
        0xA9, 0x00, 0x85, 0x00,                 # lda #0; sta VSYNC: the frame ends
        0xE6, 0x80, 0xA5, 0x80,                 # inc $80; lda $80 (n)
        0x0A, 0x85, 0x09,                       # asl a; sta COLUBK
        0xA5, 0x80, 0x29, 0x07, 0xAA,           # lda $80; and #7; tax
        0xBC, 0x35, 0xF8,                       # ldy VARYING_LINES,x ($f835)
        0x85, 0x02, 0x88, 0xD0, 0xFB,           # lines: sta WSYNC; dey; bne lines
        0x4C, 0x10, 0xF8,                       # jmp frame
    ]
    rom = bytearray(2048)
    rom[:len(code)] = bytes(code)
    rom[len(code):len(code) + 8] = bytes(lines)
    rom[0x7FC:0x800] = bytes([0x00, 0xF8, 0x00, 0xF8])   # reset and IRQ vectors: $f800
    return bytes(rom)


def varying_frames_env(frameskip: int, lines: tuple[int, ...] = VARYING_LINES,
                       last_frame_only: bool = True) -> "_core.VecEnv":
    """One env of that ROM from power-on, under Freeway's rules (RAM all zero: never terminal)."""
    console, spec = make_console(get_game("freeway"), varying_frames_rom(lines))
    vec = _core.VecEnv(spec, 1, frameskip, 0.0, 0, 1, False, False, 0, False, False, 1)
    vec.set_pool(np.stack([console.state()]))
    vec.last_frame_only = last_frame_only
    vec.reset(np.ones(1, np.uint8), False)
    return vec


def play(vec: "_core.VecEnv", steps: int) -> None:
    rewards, terminated, truncated = np.zeros(1, np.int32), np.zeros(1, np.uint8), np.zeros(1, np.uint8)
    for _ in range(steps):
        vec.step(np.zeros(1, np.uint8), rewards, terminated, truncated)
        assert not terminated[0] and not truncated[0]


def test_a_step_run_again_first_redraws_the_buffer_left_behind():
    """States taken after the first step of each pair redraw the buffer left behind before the
    second runs again; taken after the second, they leave the rerun to redraw it. Both must equal
    frameskip 1's (without that redraw the second kind differs in 14,560 bytes)."""
    after_first, after_second, slow = varying_frames_env(4), varying_frames_env(4), varying_frames_env(1)
    for k in range(16):
        play(after_first, 1)
        play(after_second, 1)
        play(slow, 4)
        vec = after_first if k % 2 == 0 else after_second
        assert np.array_equal(vec.get_states(), slow.get_states()), f"step {k}"
    assert after_first.redo_stats() == (8, 0)    # every second step ran again, behind nothing
    # The same steps: the first after redrawing; the later ones follow a step that, predicted
    # short, drew every frame at once and left nothing behind.
    assert after_second.redo_stats() == (7, 1)


@pytest.mark.parametrize("last_frame_only", [True, False])
def test_steps_after_short_frames_draw_every_frame_at_once(last_frame_only):
    """Frames that all end before the display's last row, as Journey Escape's do: only the first
    step runs again; the next ones, predicted short, draw every frame at once. The states, both
    frame buffers included, equal frameskip 1's."""
    short = (120,) * 8
    fast = varying_frames_env(4, short, last_frame_only)
    slow = varying_frames_env(1, short, last_frame_only)
    for k in range(8):
        play(fast, 1)
        play(slow, 4)
        assert np.array_equal(fast.get_states(), slow.get_states()), f"step {k}"
    assert fast.redo_stats() == (1, 0)
