// cule._core, the module both backends import: the kernels/ emulator compiled by the host
// compiler, exposed to Python (the CPU backend's VecEnv, states and their checks, the games), and
// the constants Python shares with the kernels.
//   Console  one machine, driven frame by frame: ALE's power-on and reset sequences, tools.
//   VecEnv   N machines stepped together on several threads, with the reset pool.
#include "bindings/ale_state.h"
#include "bindings/catalogue.h"
#include "bindings/single_console.h"
#include "bindings/state_check.h"
#include "bindings/vec_env.h"

namespace py = pybind11;
using namespace cule;
using namespace cule::bindings;

// The machine at the start of a state's bytes (its header checked), by value.
static Machine machine_of(const u8* state, py::ssize_t size, const char* what) {
    Machine m;
    if ((size_t)size < sizeof m) throw std::invalid_argument(std::string(what) + " is too short to be a state");
    std::memcpy(&m, state, sizeof m);
    if (m.header.magic != STATE_MAGIC || m.header.version != STATE_VERSION)
        throw std::invalid_argument(std::string(what) + " is not a state of this cule (its header differs)");
    return m;
}
static Machine machine_of(const Bytes& state, const char* what) {
    if (state.ndim() != 1) throw std::invalid_argument(std::string(what) + " must be one state, 1-D");
    return machine_of(state.data(), state.size(), what);
}

// `m` with the sound generator of `old`, which first takes the audio writes `old` had not applied
// (ALE applies them at its next frame: the same): ALE's generator runs on across a restored state
// or a reset_game.
static void keep_running(Machine& m, Machine old) {
    sound_apply(old.sound, old.console.tia);
    m.sound = old.sound;
    m.sound_shown = old.sound_shown;
}

// `state` with its machine replaced by `m`.
static Bytes with_machine(const Bytes& state, const Machine& m) {
    Bytes out(state.size());
    std::memcpy(out.mutable_data(), state.data(), (size_t)state.size());
    std::memcpy(out.mutable_data(), &m, sizeof m);
    return out;
}

PYBIND11_MODULE(_core, m) {
    m.doc() = "cule's core: the kernels/ emulator compiled for the host (the CPU backend, states, the games)";
    m.attr("NUM_GAMES") = (int)NUM_GAMES;
    m.attr("SCREEN_WIDTH") = (int)SCREEN_WIDTH;
    m.attr("RAM_BYTES") = (int)RAM_BYTES;
    m.attr("TIA_LOG_FRAMES") = (int)TIA_LOG_FRAMES;
    m.attr("TIA_LOG_EVENTS") = (int)TIA_LOG_EVENTS;
    m.attr("WARP_LANES") = (int)WARP_LANES;
    m.attr("PLAN_WORDS") = (int)PLAN_WORDS;   // a warp's plan (console.h, WarpPlan): its words, ways, periods
    m.attr("PLAN_WAYS") = (int)WAYS;
    m.attr("PLAN_PERIOD") = (int)PLAN_PERIOD;
    m.attr("PLAN_FAR_QUARTERS") = (int)PLAN_FAR_QUARTERS;   // a far way's cost, in quarters of the least
    m.attr("PLAN_FAR_PERIODS") = (int)PLAN_FAR_PERIODS;     // a far way sampled one period in these
    m.attr("PLAN_UNITS") = py::dict(py::arg("iteration") = (int)UNIT_ITERATION, py::arg("meet") = (int)UNIT_MEET,
                                    py::arg("opcode") = (int)UNIT_OPCODE);
    m.attr("STEP_BLOCK_LANES") = (int)STEP_BLOCK_LANES;   // the state kernels' blocks (console.h, LaneTiles)
    m.attr("IN_PASSES_WARPS_PER_SM") = (int)IN_PASSES_WARPS_PER_SM;   // the in-passes kernel's launch bound
    m.attr("TIA_SLOT_BYTES") = (int)(TIA_LANE_WORDS * 4);   // a lane's TIA slot in the in-passes kernel
    m.attr("AREA_AXES_BYTES") = (int)(2 * sizeof(AreaAxis));   // an observation's two axes
    m.attr("END_REPEATED") = (int)END_REPEATED;   // cule_observe's sources (kernels/env/observe.h)
    m.attr("END_POOLED") = (int)END_POOLED;
    m.attr("NEW_EPISODE") = (int)NEW_EPISODE;   // what a step does next (kernels/env/env.h, EnvSlot.needs_reset)
    m.attr("RESUME_GAME") = (int)RESUME_GAME;
    m.attr("PADDLE_DELTA") = (int)PADDLE_DELTA;   // a paddle's turn a frame at ALE's full strength
    m.attr("PADDLE_DELTA_MAX") = (int)PADDLE_DELTA_MAX;
    m.attr("STATE_VERSION") = (int)STATE_VERSION;   // the layout of the states get_states gives
    m.attr("SOUND_SAMPLES") = (int)SOUND_SAMPLES;   // a frame of the sound observation
    m.def("repeat_threshold", &repeat_threshold, py::arg("repeat_action_probability"));
    m.attr("ACTION_NAMES") = py::tuple(py::cast(std::vector<std::string>(ACTION_NAMES, ACTION_NAMES + NUM_ACTIONS)));
    m.attr("RESET_ACTION") = (int)RESET;
    m.attr("CART_SCHEME_NAMES") =
        py::tuple(py::cast(std::vector<std::string>(CART_SCHEME_NAMES, CART_SCHEME_NAMES + NUM_CART_SCHEMES)));
    // The 6502's opcode table (mode | access << 4 | operation << 6 | operand bytes << 13,
    // kernels/atari/cpu6502.h), for the SIMT model's costs (kernel_models/simt_model.py).
    m.attr("OPCODE_ENTRIES") = py::tuple(py::cast(std::vector<u16>(m6502::OPCODES, m6502::OPCODES + 256)));
    m.def("game_catalogue", &game_catalogue, "every game's settings, from its header, in the kernels' order");

    py::class_<GameSpec>(m, "GameSpec")
        .def(py::init(&make_spec), py::arg("rom"), py::arg("game"))
        .def_property_readonly("state_bytes", &GameSpec::state_bytes, "a state: the machine, then both frame buffers")
        .def_property_readonly("rom", [](const GameSpec& s) {
            return py::bytes(reinterpret_cast<const char*>(s.rom.data()), s.rom.size());
        });

    py::class_<SingleConsole>(m, "Console")
        .def(py::init<GameSpec>())
        .def("power_on", &SingleConsole::power_on)
        .def("system_reset", [](SingleConsole& c) { c.system_reset(); })
        .def("frame", &SingleConsole::frame, py::arg("a"), py::arg("b") = (int)NOOP, py::arg("reset") = false,
             py::arg("select") = false, py::arg("settings") = true)
        .def("begin_episode", &SingleConsole::begin_episode)
        .def("sound_frame", &SingleConsole::sound_frame)
        .def("reset_sound", &SingleConsole::reset_sound)
        .def("count_frame", &SingleConsole::count_frame)
        .def("game_reset", &SingleConsole::game_reset)
        .def("game_select_mode", &SingleConsole::game_select_mode)
        .def("clear_actions", &SingleConsole::clear_actions)
        .def("set_difficulty", [](SingleConsole& c, int d) { c.machine().difficulty = (u8)d; })
        .def("ram", &SingleConsole::ram)
        .def("screen", &SingleConsole::screen)
        .def("cpu", &SingleConsole::cpu)
        .def("tia", &SingleConsole::tia)
        .def("cart", &SingleConsole::cart)
        .def("state", &SingleConsole::state)
        .def("set_state", [](SingleConsole& c, const Bytes& s) {
            check_state(c.spec(), s.data(), s.size(), "the state");
            c.set_state(s);
        })
        .def_property_readonly("reward", [](const SingleConsole& c) { return c.machine().game.reward; })
        .def_property_readonly("terminal", [](const SingleConsole& c) { return (bool)c.machine().game.terminal; })
        .def_property_readonly("lives", [](const SingleConsole& c) { return c.machine().game.lives; })
        .def_property_readonly("frame_number", [](const SingleConsole& c) { return c.machine().frame_number; })
        .def_property_readonly("episode_frame_number", [](const SingleConsole& c) { return c.machine().episode_frame_number; });

    py::class_<VecEnv> vec_env(m, "VecEnv");
#ifdef CULE_TRACE   // the SIMT model's build (kernel_models/simt_model.py)
    vec_env.def("start_trace", &VecEnv::start_trace)
        .def("take_trace", &VecEnv::take_trace)
        .def("take_render_trace", &VecEnv::take_render_trace);
#endif
    vec_env
        .def(py::init<GameSpec, i32, i32, double, i32, u32, bool, bool, u16, bool, bool, i32>(), py::arg("spec"),
             py::arg("num_envs"), py::arg("frameskip"), py::arg("repeat_action_probability"),
             py::arg("max_episode_frames"), py::arg("legal_actions"), py::arg("episodic_life"),
             py::arg("life_loss_info"), py::arg("resume_noop_max"), py::arg("resume_fire"), py::arg("sound"),
             py::arg("num_threads"))
        .def("set_pool", &VecEnv::set_pool)
        .def("seed", &VecEnv::seed)
        .def("rngs", &VecEnv::rngs)
        .def("set_rngs", &VecEnv::set_rngs)
        .def("reset", &VecEnv::reset)
        .def("step", &VecEnv::step)
        .def("step_and_stack", &VecEnv::step_and_stack)
        .def("step_one", &VecEnv::step_one, py::arg("input"), py::arg("out"))
        .def("screens", &VecEnv::screens)
        .def("observe", &VecEnv::observe)
        .def("set_stacks", &VecEnv::set_stacks, py::arg("ram"), py::arg("grey"), py::arg("height"), py::arg("width"),
             py::arg("depth"), py::arg("maxpool"), py::arg("vector_env_end"), py::arg("envpool_end"), py::arg("fill"))
        .def("advance_stacks", &VecEnv::advance_stacks)
        .def("restart_stacks", &VecEnv::restart_stacks)
        .def("pending_resets", &VecEnv::pending_resets)
        .def("set_ram", &VecEnv::set_ram)
        .def("ram", &VecEnv::ram)
        .def("info", &VecEnv::info)
        .def("episode_state", &VecEnv::episode_state)
        .def("get_states", &VecEnv::get_states)
        .def("set_states", &VecEnv::set_states)
        .def_property_readonly("num_threads", &VecEnv::num_threads, "the caller and the workers")
        .def_property("split_render", &VecEnv::split_render, &VecEnv::set_split_render)
        .def_property("last_frame_only", &VecEnv::last_frame_only, &VecEnv::set_last_frame_only)
        .def("render_stats", &VecEnv::render_stats)
        .def("redo_stats", &VecEnv::redo_stats)
        .def_property_readonly("num_envs", &VecEnv::num_envs);

    m.def("check_states", &check_states, py::arg("spec"), py::arg("states"), py::arg("what"),
          "raises ValueError naming the first row of `states` that is no state of spec's game, or has a field "
          "out of its range");
    m.def("state_from_ale", &state_from_ale, py::arg("base"), py::arg("game"), py::arg("fields"));
    m.def("step_config", [](const GameSpec& spec, i32 frameskip, double repeat_action_probability,
                             i32 max_episode_frames, u32 legal_actions, bool episodic_life, bool life_loss_info,
                             u16 resume_noop_max, bool resume_fire, bool sound) {
        const StepConfig cfg = make_step_config(spec.game, spec.wiring, frameskip, repeat_action_probability,
                                                max_episode_frames, legal_actions, episodic_life, life_loss_info,
                                                resume_noop_max, resume_fire, sound);
        py::array_t<u8> out(sizeof cfg);
        std::memcpy(out.mutable_data(), &cfg, sizeof cfg);
        return out;
    }, py::arg("spec"), py::arg("frameskip"), py::arg("repeat_action_probability"), py::arg("max_episode_frames"),
          py::arg("legal_actions"), py::arg("episodic_life"), py::arg("life_loss_info"), py::arg("resume_noop_max"),
          py::arg("resume_fire"), py::arg("sound"),
          "the kernels' StepConfig (kernels/env/env.h) as bytes, made as the CPU backend's VecEnv makes its own");
    m.def("layout", &machine_layout, "sizes and field offsets of the state structs, as this compiler lays them out");

    // ALE's sound observation on a state's machine (kernels/atari/tia_sound.h), for the one env of
    // ale-py's AtariEnv: the samples of the last frame, and the generator carried across a
    // restored state or a reset, which ALE's keeps running.
    m.def("sound_samples", [](const Bytes& states) {
        if (states.ndim() != 2) throw std::invalid_argument("states must be (N, state_bytes), one state a row");
        const py::ssize_t n = states.shape(0);
        py::array_t<u8> out({n, (py::ssize_t)SOUND_SAMPLES});
        for (py::ssize_t i = 0; i < n; ++i) {
            TiaSound generator = machine_of(states.data(i, 0), states.shape(1), "states").sound_shown;
            sound_samples(generator, out.mutable_data(i, 0), SOUND_SAMPLES);
        }
        return out;
    }, py::arg("states"), "the 512 samples of each state's last frame, (N, 512), where its step ran the sound "
          "generator");
    m.def("carry_sound", [](const Bytes& from, const Bytes& into) {
        Machine m = machine_of(into, "into");
        keep_running(m, machine_of(from, "from"));
        m.console.tia.audio_written = 0;   // ALE's queue is not part of its states
        return with_machine(into, m);
    }, py::arg("from"), py::arg("into"),
          "`into`, a restored state, with the sound generator of `from` and the audio writes `from` had not "
          "applied, as ALE's generator runs on across a restored state");
    m.def("replay_reset_sound", [](const Bytes& from, const Bytes& into, const Bytes& log) {
        if (log.ndim() != 2 || log.shape(0) < 1 || log.shape(1) != 1 + AUDIO_REGISTERS)
            throw std::invalid_argument("log must be Console.reset_sound()'s, (K + 1, 7)");
        Machine m = machine_of(into, "into");
        keep_running(m, machine_of(from, "from"));
        const py::ssize_t frames = log.shape(0) - 1;
        for (py::ssize_t f = 0; f <= frames; ++f) {
            Tia& t = m.console.tia;
            t.audio_written = *log.data(f, 0);
            std::copy(log.data(f, 1), log.data(f, 1) + AUDIO_REGISTERS, t.audio);
            if (f < frames) sound_frame(m);
        }
        return with_machine(into, m);
    }, py::arg("from"), py::arg("into"), py::arg("log"),
          "`into`, a reset's state, with the sound generator of `from` run through the reset's sound frames "
          "(Console.reset_sound()), as ALE's generator runs on through a reset_game");
    m.def("sound_frames", [](const Bytes& state, i32 frames) {
        Machine m = machine_of(state, "state");
        for (i32 f = 0; f < frames; ++f) sound_frame(m);
        return with_machine(state, m);
    }, py::arg("state"), py::arg("frames"), "the state after `frames` frames of the sound generator alone "
          "(ALE's after an episode's end, where its frames play nothing)");

    m.def("palette_rgb", [](bool pal) {
        py::array_t<u8> out({256, 3});
        for (int i = 0; i < 256; ++i)
            for (int c = 0; c < 3; ++c) out.mutable_at(i, c) = palette_channel((u8)i, pal, false, c);
        return out;
    }, py::arg("pal") = false, "ALE's RGB palette, (256, 3), NTSC or PAL");
    m.def("palette_grey", [](bool pal) { return py::array_t<u8>(256, pal ? PAL_GREY : NTSC_GREY); },
          py::arg("pal") = false, "ALE's grey levels by pixel value, NTSC or PAL");

}
