"""The learning rules of the training examples (examples/ppo.py, a2c_vtrace.py, dqn.py) against
references written here straight from the papers' formulas: GAE as a discounted sum of TD errors
and as a lambda-return, V-trace's eq. 1 as a double sum, the Double DQN target, the replay
buffer's contents, PPO's clipped objective and value clipping. Plain Python loops over random
float64 tensors with fixed seeds, and small cases whose numbers are written out by hand."""
from __future__ import annotations

import math
import types

import pytest
import torch
from torch.testing import assert_close

from _examples import load

ppo, a2c_vtrace, dqn = load("ppo"), load("a2c_vtrace"), load("dqn")
F64 = torch.float64
# gae() and vtrace() multiply gamma (and lambda) into float32 done masks, which rounds them to
# float32 even for float64 inputs: the discounts below are binary fractions, exact in float32, so
# that the comparisons can hold to float64's precision.


def random_rollout(seed: int, steps: int, envs: int, done_probability: float = 0.25):
    """rewards (T, N), values (T + 1, N) and dones (T, N) with episode ends inside the rollout,
    one env without any (it bootstraps from V(x_T) at every step) and one ending at the last step
    (V(x_T) must not count for it)."""
    generator = torch.Generator().manual_seed(seed)
    rewards = torch.randn(steps, envs, dtype=F64, generator=generator)
    values = torch.randn(steps + 1, envs, dtype=F64, generator=generator)
    dones = torch.rand(steps, envs, generator=generator) < done_probability
    dones[:, 0] = False
    dones[-1, 1] = True
    assert dones[:-1].any(), "the rollout should have episode ends before its last step"
    return rewards, values, dones


# ---- GAE (Schulman et al., 2016) -----------------------------------------------------------------

def next_value(values: torch.Tensor, last_value: torch.Tensor, t: int, e: int) -> float:
    """V(x_(t+1)) of env e: the rollout's, or last_value after its last step."""
    return (values[t + 1, e] if t + 1 < len(values) else last_value[e]).item()


def gae_by_direct_sum(rewards, values, dones, last_value, gamma: float, lam: float) -> torch.Tensor:
    """A_t = sum_l (gamma lambda)^l delta_(t+l), delta_k = r_k + gamma V(x_(k+1)) - V(x_k) with no
    V(x_(k+1)) where step k ended an episode; the sum stops at the episode's end (its delta
    included) or at the rollout's, where V(x_T) = last_value."""
    steps, envs = rewards.shape
    out = torch.zeros(steps, envs, dtype=F64)
    for e in range(envs):
        for t in range(steps):
            total = 0.0
            for k in range(t, steps):
                done = bool(dones[k, e])
                delta = rewards[k, e].item() + gamma * next_value(values, last_value, k, e) * (not done) \
                    - values[k, e].item()
                total += (gamma * lam) ** (k - t) * delta
                if done:
                    break
            out[t, e] = total
    return out


def lambda_returns(rewards, values, dones, last_value, gamma: float, lam: float) -> torch.Tensor:
    """G_t^lambda = (1 - lambda) sum_(n=1)^(H-1) lambda^(n-1) G_t^(n) + lambda^(H-1) G_t^(H), the
    truncated lambda-return (Sutton and Barto, 2018, section 12.3): H the steps left to the
    episode's end or the rollout's, G_t^(n) the n-step return, bootstrapped from V(x_(t+n)) unless
    the episode ended first."""
    steps, envs = rewards.shape
    out = torch.zeros(steps, envs, dtype=F64)
    for e in range(envs):
        for t in range(steps):
            ends = [k for k in range(t, steps) if dones[k, e]]
            horizon = ends[0] - t + 1 if ends else steps - t

            def n_step_return(n: int) -> float:
                discounted = sum(gamma ** i * rewards[t + i, e].item() for i in range(n))
                if ends and n == horizon:
                    return discounted
                return discounted + gamma ** n * next_value(values, last_value, t + n - 1, e)

            out[t, e] = ((1 - lam) * sum(lam ** (n - 1) * n_step_return(n) for n in range(1, horizon))
                         + lam ** (horizon - 1) * n_step_return(horizon))
    return out


def test_gae_is_the_discounted_sum_of_td_errors_up_to_each_episode_end():
    """With lambda < 1 and gamma < 1 both, so that dropping either, or tracing across an episode
    end, shows."""
    rewards, values, dones = random_rollout(seed=10, steps=9, envs=5)
    gamma, lam = 0.96875, 0.8125
    advantages = ppo.gae(rewards, values[:-1], dones, values[-1], gamma, lam)
    assert_close(advantages, gae_by_direct_sum(rewards, values[:-1], dones, values[-1], gamma, lam))


def test_gae_plus_values_is_the_lambda_return_ppo_regresses_on():
    """ppo.main's value targets are `advantages + values`: the lambda-return, built here from
    n-step returns instead of TD errors."""
    rewards, values, dones = random_rollout(seed=11, steps=8, envs=5)
    gamma, lam = 0.875, 0.75
    returns = ppo.gae(rewards, values[:-1], dones, values[-1], gamma, lam) + values[:-1]
    assert_close(returns, lambda_returns(rewards, values[:-1], dones, values[-1], gamma, lam))


def test_truncation_and_lost_lives_end_the_bootstrap_like_termination():
    """The scripts do not tell truncation from termination: TrainingEnv.step's `done` (which gae,
    vtrace and the DQN targets never bootstrap across) is set alike by a game over, a truncation
    and, with life_loss_done, a lost life; so a truncated episode's last step is not bootstrapped
    from V of its last observation. Only real game ends count as finished games in the logs."""
    common = ppo.common
    terminated = torch.tensor([True, False, False, False])
    truncated = torch.tensor([False, True, False, False])
    raw_rewards = torch.tensor([2.0, -3.0, 0.5, 0.0])
    lives_after = torch.tensor([3, 3, 2, 3])   # env 2 loses a life, its game goes on

    class StubVectorEnv:
        def step(self, actions):
            return torch.zeros(4, 1), raw_rewards, terminated, truncated, {"lives": lives_after}

    # life_loss_done last: its done flags go on to gae below.
    for life_loss_done, expected_done in ((False, [True, True, False, False]), (True, [True, True, True, False])):
        env = types.SimpleNamespace(env=StubVectorEnv(), life_loss_done=life_loss_done,
                                    lives=torch.tensor([3, 3, 3, 3]), episode_returns=torch.full((4,), 5.0),
                                    finished_return_sum=torch.zeros(()), finished_count=torch.zeros(()),
                                    obs=None, frames=0, frames_per_step=16)
        rewards, dones = common.TrainingEnv.step(env, torch.zeros(4, dtype=torch.long))
        assert dones.tolist() == expected_done
        assert rewards.tolist() == [1.0, -1.0, 0.5, 0.0]   # clipped for the loss
        assert env.finished_count.item() == 2 and env.finished_return_sum.item() == (5 + 2) + (5 - 3)

    values, last_value = torch.tensor([[0.25, 0.5, 0.75, 1.0]], dtype=F64), torch.full((4,), 10.0, dtype=F64)
    advantages = ppo.gae(rewards[None].to(F64), values, dones[None], last_value, gamma=0.5, gae_lambda=0.75)
    # The truncated env (1) gets r - V like the terminated one, not r + gamma * 10 - V; so does env 2.
    assert_close(advantages[0], torch.tensor([1.0 - 0.25, -1.0 - 0.5, 0.5 - 0.75, 0.0 + 0.5 * 10 - 1.0], dtype=F64))


# ---- V-trace (Espeholt et al., 2018) ---------------------------------------------------------------

def vtrace_targets_by_double_sum(log_rhos, rewards, dones, values, gamma: float, rho_bar: float,
                                 c_bar: float) -> torch.Tensor:
    """Eq. 1 term by term: v_s = V(x_s) + sum_(t>=s) gamma^(t-s) (prod_(i=s)^(t-1) c_i) rho_t delta_t,
    delta_t = r_t + gamma V(x_(t+1)) - V(x_t), rho_t = min(rho_bar, pi/mu), c_i = min(c_bar, pi/mu);
    at an episode end no V(x_(t+1)) and no later terms."""
    steps, envs = rewards.shape
    ratios = log_rhos.exp()
    out = torch.zeros(steps, envs, dtype=F64)
    for e in range(envs):
        rho = [min(rho_bar, ratios[t, e].item()) for t in range(steps)]
        c = [min(c_bar, ratios[t, e].item()) for t in range(steps)]
        for s in range(steps):
            total = 0.0
            for t in range(s, steps):
                done = bool(dones[t, e])
                delta = rewards[t, e].item() + gamma * values[t + 1, e].item() * (not done) - values[t, e].item()
                total += gamma ** (t - s) * math.prod(c[s:t]) * rho[t] * delta
                if done:
                    break
            out[s, e] = values[s, e].item() + total
    return out


def off_policy_rollout(seed: int, steps: int = 8, envs: int = 5):
    """A random rollout with log(pi/mu) spread wide enough that every clip below binds somewhere."""
    rewards, values, dones = random_rollout(seed, steps, envs)
    log_rhos = 1.5 * torch.randn(steps, envs, dtype=F64, generator=torch.Generator().manual_seed(seed + 1))
    return log_rhos, rewards, dones, values


CLIPS = [(1.0, 1.0), (0.5, 0.5), (0.8, 1.5), (2.0, 0.3)]   # (rho_bar, c_bar)


@pytest.mark.parametrize("rho_bar, c_bar", CLIPS)
def test_vtrace_targets_match_eq_1_as_a_double_sum(rho_bar, c_bar):
    log_rhos, rewards, dones, values = off_policy_rollout(seed=20)
    ratios = log_rhos.exp()
    assert (ratios > rho_bar).any() and (ratios < rho_bar).any() and (ratios > c_bar).any() and (ratios < c_bar).any()
    gamma = 0.9375
    targets, _ = a2c_vtrace.vtrace(log_rhos, rewards, dones, values, gamma, rho_bar, c_bar)
    assert_close(targets, vtrace_targets_by_double_sum(log_rhos, rewards, dones, values, gamma, rho_bar, c_bar))


@pytest.mark.parametrize("rho_bar, c_bar", CLIPS)
def test_vtrace_policy_gradient_advantage_bootstraps_from_the_next_target(rho_bar, c_bar):
    """Section 4.2: the actor's advantage is rho_s (r_s + gamma v_(s+1) - V(x_s)), with the next
    V-trace target v_(s+1) (V(x_T) after the last step) and nothing after an episode end."""
    log_rhos, rewards, dones, values = off_policy_rollout(seed=21)
    gamma = 0.875
    _, advantages = a2c_vtrace.vtrace(log_rhos, rewards, dones, values, gamma, rho_bar, c_bar)
    targets = vtrace_targets_by_double_sum(log_rhos, rewards, dones, values, gamma, rho_bar, c_bar)
    steps, envs = rewards.shape
    expected = torch.zeros(steps, envs, dtype=F64)
    for e in range(envs):
        for s in range(steps):
            next_target = targets[s + 1, e].item() if s + 1 < steps else values[steps, e].item()
            rho = min(rho_bar, math.exp(log_rhos[s, e].item()))
            expected[s, e] = rho * (rewards[s, e].item() + gamma * next_target * (not dones[s, e])
                                    - values[s, e].item())
    assert_close(advantages, expected)


# ---- DQN: targets and replay ---------------------------------------------------------------------

def test_double_dqn_targets_on_hand_computed_cases():
    """Rows where the online and the target network disagree on the best next action, and terminal
    rows whose next values (100 and 9) must not count."""
    next_q_online = torch.tensor([[1.0, 5.0, 2.0], [3.0, 0.0, 9.0], [0.0, 1.0, 7.0], [2.0, 8.0, 4.0]], dtype=F64)
    next_q_target = torch.tensor([[10.0, 20.0, 30.0], [7.0, 8.0, 100.0], [5.0, 6.0, -1.0], [3.0, 1.0, 9.0]], dtype=F64)
    rewards = torch.tensor([1.0, -1.0, 0.5, 0.0], dtype=F64)
    dones = torch.tensor([False, True, False, True])
    targets = dqn.double_dqn_targets(rewards, dones, next_q_online, next_q_target, gamma=0.9)
    # row 0: online argmax 1, target's Q 20: 1 + 0.9 * 20 (DQN's max would give 1 + 0.9 * 30 = 28)
    # row 1: terminal: -1 (not -1 + 0.9 * 100)
    # row 2: online argmax 2, target's Q -1: 0.5 - 0.9 (DQN's max: 0.5 + 0.9 * 6)
    # row 3: terminal: 0
    assert_close(targets, torch.tensor([19.0, -1.0, -0.4, 0.0], dtype=F64))


def test_double_dqn_targets_match_a_per_transition_loop():
    generator = torch.Generator().manual_seed(30)
    batch, num_actions, gamma = 64, 6, 0.99
    next_q_online = torch.randn(batch, num_actions, dtype=F64, generator=generator)
    next_q_target = torch.randn(batch, num_actions, dtype=F64, generator=generator)
    rewards = torch.randn(batch, dtype=F64, generator=generator)
    dones = torch.rand(batch, generator=generator) < 0.3
    expected = torch.zeros(batch, dtype=F64)
    for i in range(batch):
        best = max(range(num_actions), key=lambda a: next_q_online[i, a].item())
        expected[i] = rewards[i].item() + (0.0 if dones[i] else gamma * next_q_target[i, best].item())
    vanilla_dqn = rewards + gamma * next_q_target.max(1).values * ~dones
    assert not torch.allclose(expected, vanilla_dqn)   # the data tells the two targets apart
    assert_close(dqn.double_dqn_targets(rewards, dones, next_q_online, next_q_target, gamma), expected)


def step_data(step: int, num_envs: int) -> tuple[torch.Tensor, ...]:
    """obs, actions, rewards, dones of one step of all envs, each naming its step and env."""
    env = torch.arange(num_envs)
    obs = torch.stack([torch.full((num_envs,), step + 1), env + 1], 1).to(torch.uint8)   # nonzero: not an empty slot
    return obs, 100 * step + env, step + env / 10, (step + env) % 3 == 0


def test_replay_buffer_samples_only_stored_transitions():
    """Before the buffer fills, as it fills and after it wraps: every sample is a stored
    transition (obs, action, reward, done of one step, obs of the same env's next step), never
    an empty slot, an overwritten step or the newest step (whose next observation is not stored);
    and every one of them can be drawn."""
    torch.manual_seed(31)
    num_envs, slots = 3, 5
    buffer = dqn.ReplayBuffer(num_envs * slots, num_envs, torch.Size([2]), torch.device("cpu"))
    history = []
    for step in range(12):
        history.append(step_data(step, num_envs))
        buffer.add(*history[-1])
        oldest = max(0, step + 1 - slots)
        expected = {(tuple(history[k][0][e].tolist()), history[k][1][e].item(), history[k][2][e].item(),
                     history[k][3][e].item(), tuple(history[k + 1][0][e].tolist()))
                    for k in range(oldest, step) for e in range(num_envs)}
        assert buffer.transitions == len(expected)
        if not expected:
            continue
        obs, actions, rewards, dones, next_obs = buffer.sample(400)
        sampled = {(tuple(o.tolist()), a.item(), r.item(), d.item(), tuple(n.tolist()))
                   for o, a, r, d, n in zip(obs, actions, rewards, dones, next_obs)}
        assert sampled == expected, f"after step {step}: {sampled - expected} sampled, {expected - sampled} never"


def test_replay_buffer_wraps_around_overwriting_the_oldest_step_first():
    """9 transitions of 2 envs: 4 slots (the capacity rounds down to whole steps); from the 5th
    step on each add replaces the oldest step held, so slot i holds the newest step = i mod 4."""
    num_envs = 2
    buffer = dqn.ReplayBuffer(9, num_envs, torch.Size([2]), torch.device("cpu"))
    assert buffer.slots == 4
    steps = [step_data(step, num_envs) for step in range(11)]
    for step, data in enumerate(steps):
        buffer.add(*data)
        held = sorted(range(max(0, step - 3), step + 1), key=lambda k: k % 4)   # the last 4 steps, by slot
        for slot, k in enumerate(held):
            obs, actions, rewards, dones = steps[k]
            assert torch.equal(buffer.obs[slot], obs), f"after step {step}, slot {slot} should hold step {k}"
            assert torch.equal(buffer.actions[slot], actions)
            assert torch.equal(buffer.rewards[slot], rewards.float())
            assert torch.equal(buffer.dones[slot], dones)
        assert buffer.transitions == (len(held) - 1) * num_envs
    # After step 10: slots 0, 1, 2, 3 hold steps 8, 9, 10, 7.
    assert buffer.actions[:, 0].tolist() == [800, 900, 1000, 700]


# ---- PPO (Schulman et al., 2017) -------------------------------------------------------------------

CLIP_COEF = 0.2
# (ratio pi/pi_old, advantage, per-sample loss -min(ratio A, clip(ratio, 0.8, 1.2) A)), by hand:
POLICY_CASES = [
    (1.1, 2.0, -2.2),    # inside the clip range: -1.1 * 2
    (1.5, 2.0, -2.4),    # above 1 + eps, A > 0: clipped, -1.2 * 2 (no gain from moving further)
    (1.5, -1.0, 1.5),    # above 1 + eps, A < 0: the unclipped term is the lower bound, 1.5
    (0.5, -1.0, 0.8),    # below 1 - eps, A < 0: clipped, 0.8
    (0.5, 2.0, -1.0),    # below 1 - eps, A > 0: unclipped, -0.5 * 2
    (0.9, -3.0, 2.7),    # inside, below 1: 0.9 * 3
]


def policy_terms(ratios: list[float], advantages: list[float]) -> ppo.PPOLoss:
    """ppo_loss with these ratios (old log-probabilities 0) and advantages, values and entropies 0."""
    new_logprobs = torch.tensor([math.log(r) for r in ratios], dtype=F64)
    zeros = torch.zeros(len(ratios), dtype=F64)
    return ppo.ppo_loss(new_logprobs, zeros, torch.tensor(advantages, dtype=F64), zeros, zeros, zeros, zeros,
                        clip_coef=CLIP_COEF, clip_vloss=True, norm_adv=False, ent_coef=0.01, vf_coef=0.5)


def test_ppo_clipped_objective_on_hand_computed_cases():
    for ratio, advantage, expected in POLICY_CASES:
        assert_close(policy_terms([ratio], [advantage]).policy_loss.item(), expected,
                     msg=lambda m: f"ratio {ratio}, advantage {advantage}: {m}")
    ratios, advantages, _ = zip(*POLICY_CASES)
    terms = policy_terms(list(ratios), list(advantages))
    assert_close(terms.policy_loss.item(), (-2.2 - 2.4 + 1.5 + 0.8 - 1.0 + 2.7) / 6)
    assert_close(terms.clipfrac.item(), 4 / 6)   # |ratio - 1| > 0.2: cases 2 to 5
    assert_close(terms.approx_kl.item(), sum((r - 1) - math.log(r) for r in ratios) / 6)


def test_ppo_policy_gradient_vanishes_where_the_clip_binds():
    """d loss / d log pi = -ratio A / N where the unclipped term is the minimum, 0 where the clipped
    one is: the clip removes the incentive to move the ratio further, and only that."""
    ratios, advantages, _ = zip(*POLICY_CASES)
    new_logprobs = torch.tensor([math.log(r) for r in ratios], dtype=F64, requires_grad=True)
    zeros = torch.zeros(len(ratios), dtype=F64)
    terms = ppo.ppo_loss(new_logprobs, zeros, torch.tensor(advantages, dtype=F64), zeros, zeros, zeros, zeros,
                         clip_coef=CLIP_COEF, clip_vloss=True, norm_adv=False, ent_coef=0.0, vf_coef=0.0)
    terms.policy_loss.backward()
    expected = torch.tensor([-1.1 * 2.0, 0.0, 1.5 * 1.0, 0.0, -0.5 * 2.0, 0.9 * 3.0], dtype=F64) / 6
    assert_close(new_logprobs.grad, expected)


# (new value, per-sample value loss with clipping, without), old value 1, return 2, eps 0.2, by hand:
VALUE_CASES = [
    (1.1, 0.5 * 0.9 ** 2, 0.5 * 0.9 ** 2),   # moved by less than eps: both terms alike, 0.405
    (1.5, 0.5 * 0.8 ** 2, 0.5 * 0.5 ** 2),   # towards the return beyond eps: clipped to 1.2, 0.32
    (0.5, 0.5 * 1.5 ** 2, 0.5 * 1.5 ** 2),   # away from the return: unclipped (0.8's 0.72 is smaller), 1.125
    (2.5, 0.5 * 0.8 ** 2, 0.5 * 0.5 ** 2),   # past the return: clipped to 1.2, 0.32
    (0.9, 0.5 * 1.1 ** 2, 0.5 * 1.1 ** 2),   # moved away by less than eps, 0.605
]


def value_terms(new_values: list[float], clip_vloss: bool) -> ppo.PPOLoss:
    """ppo_loss with these new values, old values 1 and returns 2, ratios 1 and advantages 0."""
    n = len(new_values)
    zeros = torch.zeros(n, dtype=F64)
    return ppo.ppo_loss(zeros, zeros, zeros, torch.tensor(new_values, dtype=F64), torch.ones(n, dtype=F64),
                        torch.full((n,), 2.0, dtype=F64), zeros, clip_coef=CLIP_COEF, clip_vloss=clip_vloss,
                        norm_adv=False, ent_coef=0.01, vf_coef=0.5)


def test_ppo_value_loss_on_hand_computed_cases():
    for new_value, clipped, unclipped in VALUE_CASES:
        assert_close(value_terms([new_value], clip_vloss=True).value_loss.item(), clipped,
                     msg=lambda m: f"clipped, new value {new_value}: {m}")
        assert_close(value_terms([new_value], clip_vloss=False).value_loss.item(), unclipped,
                     msg=lambda m: f"unclipped, new value {new_value}: {m}")
    new_values, _, _ = zip(*VALUE_CASES)
    assert_close(value_terms(list(new_values), clip_vloss=True).value_loss.item(),
                 (0.405 + 0.32 + 1.125 + 0.32 + 0.605) / 5)


def test_ppo_loss_normalises_advantages_and_weighs_its_terms():
    """Two samples by hand: advantages 1 and 3 normalised with the minibatch's unbiased standard
    deviation sqrt(2) to -1/sqrt(2), 1/sqrt(2); ratios 1 and 1.1, both inside the clip range;
    loss = policy loss - ent_coef entropy + vf_coef value loss."""
    terms = ppo.ppo_loss(torch.tensor([0.0, math.log(1.1)], dtype=F64), torch.zeros(2, dtype=F64),
                         torch.tensor([1.0, 3.0], dtype=F64), torch.tensor([1.1, 1.5], dtype=F64),
                         torch.ones(2, dtype=F64), torch.full((2,), 2.0, dtype=F64),
                         torch.tensor([1.2, 0.8], dtype=F64), clip_coef=CLIP_COEF, clip_vloss=True, norm_adv=True,
                         ent_coef=0.01, vf_coef=0.5)
    normalised = 1 / (math.sqrt(2) + 1e-8)
    policy_loss = -(1.0 * -normalised + 1.1 * normalised) / 2   # -0.0353553...
    value_loss = (0.405 + 0.32) / 2                             # VALUE_CASES' first two
    assert_close(terms.policy_loss.item(), policy_loss)
    assert_close(terms.value_loss.item(), value_loss)
    assert_close(terms.entropy.item(), 1.0)
    assert_close(terms.loss.item(), policy_loss - 0.01 * 1.0 + 0.5 * value_loss)


@pytest.mark.parametrize("norm_adv, clip_vloss", [(False, False), (False, True), (True, False), (True, True)])
def test_ppo_loss_matches_the_papers_objective_on_random_minibatches(norm_adv, clip_vloss):
    """eq. 7's L^CLIP, the (clipped) squared value error and the entropy, per sample in Python."""
    generator = torch.Generator().manual_seed(40)
    n, clip_coef, ent_coef, vf_coef = 64, 0.1, 0.02, 0.7
    old_logprobs = -torch.rand(n, dtype=F64, generator=generator) * 3
    new_logprobs = old_logprobs + 0.3 * torch.randn(n, dtype=F64, generator=generator)
    advantages = 2 + torch.randn(n, dtype=F64, generator=generator)   # mean 2: normalising changes them
    old_values = torch.randn(n, dtype=F64, generator=generator)
    new_values = old_values + 0.3 * torch.randn(n, dtype=F64, generator=generator)
    returns = torch.randn(n, dtype=F64, generator=generator)
    entropies = torch.rand(n, dtype=F64, generator=generator)
    ratios = (new_logprobs - old_logprobs).exp()
    assert (ratios > 1 + clip_coef).any() and (ratios < 1 - clip_coef).any()
    assert ((new_values - old_values).abs() > clip_coef).any()

    a = advantages.tolist()
    if norm_adv:
        mean = sum(a) / n
        std = math.sqrt(sum((x - mean) ** 2 for x in a) / (n - 1))
        a = [(x - mean) / (std + 1e-8) for x in a]
    surrogate = sum(min(r * x, min(max(r, 1 - clip_coef), 1 + clip_coef) * x) for r, x in zip(ratios.tolist(), a)) / n
    value_errors = []
    for v, v_old, g in zip(new_values.tolist(), old_values.tolist(), returns.tolist()):
        error = (v - g) ** 2
        if clip_vloss:
            error = max(error, (v_old + min(max(v - v_old, -clip_coef), clip_coef) - g) ** 2)
        value_errors.append(error)
    value_loss = 0.5 * sum(value_errors) / n
    entropy = entropies.mean().item()

    terms = ppo.ppo_loss(new_logprobs, old_logprobs, advantages, new_values, old_values, returns, entropies,
                         clip_coef=clip_coef, clip_vloss=clip_vloss, norm_adv=norm_adv, ent_coef=ent_coef,
                         vf_coef=vf_coef)
    assert_close(terms.policy_loss.item(), -surrogate)
    assert_close(terms.value_loss.item(), value_loss)
    assert_close(terms.loss.item(), -surrogate - ent_coef * entropy + vf_coef * value_loss)
    assert_close(terms.clipfrac.item(), sum(abs(r - 1) > clip_coef for r in ratios.tolist()) / n)
    assert_close(terms.approx_kl.item(), sum((r - 1) - math.log(r) for r in ratios.tolist()) / n)
