"""Updates of examples/ppo.py or a2c_vtrace.py on one fixed rollout of ENVS envs, the envs split
evenly between torchrun's processes (gloo), or all in one process; process 0 writes the weights
to OUT. tests/test_examples.py runs it both ways: K processes must learn as one process with K
times the envs.

    python -m torch.distributed.run --standalone --nproc_per_node=2 tests/_ddp_update.py ppo OUT
    python tests/_ddp_update.py ppo OUT
"""
import sys

import torch

from _examples import load
from cule.profiling import PhaseTimer

ENVS, STEPS, NUM_ACTIONS = 8, 4, 6
# PPO: two epochs of one minibatch each, so that the order of the samples cannot matter.
ARGS = {"ppo": ["--num-minibatches", "1", "--update-epochs", "2"], "a2c_vtrace": []}


def rollout() -> dict[str, torch.Tensor]:
    """Time-major (STEPS, ENVS, ...) tensors and the observations after them (ENVS, ...), the
    same in every process."""
    g = torch.Generator().manual_seed(1)
    shape = (STEPS, ENVS)
    return dict(obs=torch.randint(0, 256, (*shape, 4, 84, 84), generator=g, dtype=torch.uint8),
                next_obs=torch.randint(0, 256, (ENVS, 4, 84, 84), generator=g, dtype=torch.uint8),
                actions=torch.randint(0, NUM_ACTIONS, shape, generator=g),
                logprobs=-torch.rand(shape, generator=g) * 2, values=torch.randn(shape, generator=g),
                advantages=torch.randn(shape, generator=g), returns=torch.randn(shape, generator=g),
                rewards=torch.randint(-1, 2, shape, generator=g).float(), dones=torch.rand(shape, generator=g) < 0.2)


def main(script: str, out: str) -> None:
    module = load(script)
    common = module.common
    args = common.parse_args(module.Args, ["--device", "cpu", *ARGS[script]])
    dist = common.setup_distributed("cpu")
    per_process = ENVS // dist.world_size
    envs = slice(dist.rank * per_process, (dist.rank + 1) * per_process)
    data = {name: t[envs] if name == "next_obs" else t[:, envs] for name, t in rollout().items()}
    torch.manual_seed(0)
    agent = common.ActorCritic(NUM_ACTIONS)
    model = common.training_model(agent, args, dist)
    optimizer = module.make_optimizer(model, args)
    timer = PhaseTimer("cpu")
    if script == "ppo":
        batch = module.Batch(*(data[name].flatten(0, 1) for name in module.Batch._fields))
        module.update(model, optimizer, batch, args, timer)
    else:
        segment = module.Segment(data["obs"], data["actions"], data["logprobs"], data["rewards"], data["dones"],
                                 data["next_obs"])
        for _ in range(2):
            module.update(model, optimizer, segment, args, timer)
    if dist.is_main:
        torch.save(agent.state_dict(), out)
    common.cleanup_distributed()


if __name__ == "__main__":
    main(*sys.argv[1:])
