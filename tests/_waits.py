"""Catches what would make the host wait for a GPU, on any device: under `no_host_waits`, an
operation that reads a tensor's values on the host raises. On the CPU (the CUDA backend run on the
host, as CI runs it) that is the only check there is; on a GPU torch's sync debug mode watches too."""
import contextlib

import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten
# The operations that copy values to the host to go on: item(), bool(), int() and a 0-d tensor as
# an index (_local_scalar_dense), and those whose result's size depends on the values.
READS_VALUES = {aten._local_scalar_dense.default, aten.is_nonzero.default, aten.equal.default,
                aten.nonzero.default, aten.masked_select.default}
INDEXING = {aten.index.Tensor, aten.index_put.default, aten.index_put_.default}


class HostReads(TorchDispatchMode):
    """Raises on the operations of READS_VALUES, and on indexing by a boolean mask (a nonzero)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        masked = func in INDEXING and any(i is not None and i.dtype == torch.bool for i in args[1])
        if func in READS_VALUES or masked:
            raise RuntimeError(f"{func} makes the host wait for the GPU" + (" (a boolean mask)" if masked else ""))
        return func(*args, **(kwargs or {}))


@contextlib.contextmanager
def no_host_waits(device):
    with HostReads():
        if torch.device(device).type != "cuda":
            yield
            return
        torch.cuda.set_sync_debug_mode("error")
        try:
            yield
        finally:
            torch.cuda.set_sync_debug_mode(0)
