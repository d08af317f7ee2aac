# One-rank PyTorch all_reduce over its bundled NCCL, to capture NCCL_DEBUG=INFO.
import os, torch, torch.distributed as dist
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29511")
dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda:0"))
t = torch.ones(1 << 20, device="cuda")
dist.all_reduce(t)
torch.cuda.synchronize()
print("torch", torch.__version__, "nccl", torch.cuda.nccl.version(), "sum", t[0].item())
dist.destroy_process_group()
