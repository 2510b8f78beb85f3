"""Smoke test of the jsii-generated Python bindings: the packaged library loads in a fresh
virtualenv, a ModelDeployment synthesizes, selection reasons and errors come through."""
import cdk8s
from cdk8s_inference import (
    AutoscalingMetric,
    AutoscalingOptions,
    EngineOptions,
    EngineType,
    GatewayRef,
    GpuOptions,
    LoraAdapter,
    LoraOptions,
    LoraSource,
    ModelDeployment,
    ModelOptions,
    MultiNodeOptions,
    ProviderOptions,
    ProviderRegistry,
    ResourceOptions,
    ScalingOptions,
)

app = cdk8s.App()
ProviderRegistry(app, "Providers", gateway=GatewayRef.from_name("inference-gateway", "gateway-system"))
chart = cdk8s.Chart(app, "llm", namespace="ml")
md = ModelDeployment(
    chart,
    "qwen",
    model=ModelOptions(id="Qwen/Qwen3-0.6B"),
    provider=ProviderOptions(name="vllm"),
    engine=EngineOptions(engine_type=EngineType.VLLM, context_length=8192),
    resources=ResourceOptions(gpu=GpuOptions(count=1)),
)
assert md.provider_name == "vllm", md.provider_name
assert md.engine_type == EngineType.VLLM, md.engine_type
kinds = sorted({line.split(": ")[1] for line in app.synth_yaml().splitlines() if line.startswith("kind: ")})
assert kinds == ["ConfigMap", "Deployment", "HTTPRoute", "InferencePool", "ModelDeployment", "Role", "RoleBinding", "Service", "ServiceAccount"], kinds
assert "--max-model-len" in app.synth_yaml()

# Serving at scale from Python: static factories, structs and enums across the jsii boundary.
scaled_app = cdk8s.App()
scaled = cdk8s.Chart(scaled_app, "scaled", namespace="ml")
ModelDeployment(
    scaled,
    "llama",
    model=ModelOptions(id="meta-llama/Llama-3.1-70B-Instruct"),
    provider=ProviderOptions(name="vllm"),
    resources=ResourceOptions(gpu=GpuOptions(count=16)),
    multi_node=MultiNodeOptions(gpus_per_node=8),
    scaling=ScalingOptions(autoscaling=AutoscalingOptions(
        max_replicas=4,
        metrics=[AutoscalingMetric.queue_depth(5), AutoscalingMetric.kv_cache_usage(80)],
    )),
    lora=LoraOptions(adapters=[LoraAdapter(name="sql", source=LoraSource.hugging_face("acme-ml/llama-sql-lora"))]),
)
scaled_yaml = scaled_app.synth_yaml()
for kind in ("LeaderWorkerSet", "ScaledObject", "PodMonitor"):
    assert f"kind: {kind}" in scaled_yaml, kind
assert "--lora-modules" in scaled_yaml

ModelDeployment(chart, "bad", model=ModelOptions())
try:
    app.synth_yaml()
    raise AssertionError("an invalid deployment synthesized")
except Exception as e:  # jsii surfaces the JavaScript error
    assert "spec.model.id: Required value: model.id is required when source is huggingface" in str(e), str(e)

print("python bindings: 1 passed, 0 failed")
