"""One process or several: the process group torchrun asks for (WORLD_SIZE > 1), or none.

torchrun sets RANK, LOCAL_RANK and WORLD_SIZE (and the rendezvous address); gloo carries CPU
tensors, NCCL CUDA ones. With one process every collective is a no-op."""

import dataclasses
import os
from typing import Any, List, Optional

import torch
import torch.distributed as dist
from torch import Tensor


def pick_device(requested: Optional[str], local_rank: int = 0) -> torch.device:
    """"cpu", "cuda" (this process's GPU under torchrun) or "cuda:N"; default CUDA where there is one."""
    name = requested or ("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError("--device cuda: this PyTorch sees no CUDA GPU (use --device cpu)")
        if device.index is None:
            device = torch.device("cuda", local_rank % torch.cuda.device_count())
    elif device.type != "cpu":
        raise ValueError(f"--device {name}: cpu or cuda")
    return device


@dataclasses.dataclass
class Distributed:
    rank: int = 0
    world_size: int = 1
    device: torch.device = torch.device("cpu")

    @staticmethod
    def start(device: Optional[str] = None) -> "Distributed":
        """Joins torchrun's process group when there is one (gloo on CPU, NCCL on CUDA)."""
        world = int(os.environ.get("WORLD_SIZE", "1"))
        if world <= 1:
            return Distributed(0, 1, pick_device(device))
        local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        dev = pick_device(device, local_rank)
        if dev.type == "cuda":
            torch.cuda.set_device(dev)  # NCCL's collectives use the current device
        if not dist.is_initialized():
            dist.init_process_group("nccl" if dev.type == "cuda" else "gloo")
        return Distributed(dist.get_rank(), dist.get_world_size(), dev)

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @property
    def active(self) -> bool:
        return self.world_size > 1

    def sum_(self, t: Tensor) -> Tensor:
        """Sums `t` over the processes, in place."""
        if self.active:
            dist.all_reduce(t)
        return t

    def gather(self, value: Any) -> List[Any]:
        """Every process's `value`, by rank."""
        if not self.active:
            return [value]
        out: List[Any] = [None] * self.world_size
        dist.all_gather_object(out, value)
        return out

    def close(self, barrier: bool = True) -> None:
        """Leaves the process group; with `barrier`, once every rank is done (rank 0 writes the files last)."""
        if self.active and dist.is_initialized():
            if barrier:
                dist.barrier()
            dist.destroy_process_group()
