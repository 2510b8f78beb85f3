"""A provider written in Python through the jsii bindings: selected by its CEL rule, validated and
translated by Python code, its objects synthesized next to the shipped providers' ones."""
import cdk8s
import cdk8s_plus_34
from cdk8s_inference import (
    EngineCapabilityOptions,
    EngineOptions,
    EngineType,
    FieldError,
    FieldErrorKind,
    InferencePoolTarget,
    InferenceProvider,
    InferenceProviderConfig,
    ModelDeployment,
    ModelOptions,
    ProviderRegistry,
    ResourceOptions,
    SelectionRule,
)


class LlamaServerProvider(InferenceProvider):
    """llama.cpp's server as one plain Deployment; wins every llama.cpp deployment by priority."""

    def __init__(self) -> None:
        super().__init__(
            config=InferenceProviderConfig(
                name="llama-server",
                engines=[EngineCapabilityOptions(engine_type=EngineType.LLAMACPP, cpu_support=True, requires_crd=False)],
                selection_rules=[SelectionRule(condition="spec.engine.type == 'llamacpp'", priority=200)],
            ),
            display_name="llama-server",
        )

    def validate(self, deployment):
        if not deployment.spec.get("model", {}).get("id", "").endswith("-GGUF"):
            return [FieldError(path="spec.model.id", kind=FieldErrorKind.INVALID, value=deployment.spec["model"]["id"],
                               message="llama-server loads GGUF repositories only")]
        return []

    def translate(self, scope, deployment):
        labels = {"app": deployment.name}
        workload = cdk8s.ApiObject(
            scope, "Deployment", api_version="apps/v1", kind="Deployment",
            metadata=cdk8s.ApiObjectMetadata(name=deployment.name, namespace=deployment.namespace),
        )
        workload.add_json_patch(cdk8s.JsonPatch.add("/spec", {
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{
                    "name": "server",
                    "image": "ghcr.io/ggml-org/llama.cpp:server",
                    "args": ["-hf", deployment.spec["model"]["id"], "--port", "8080"],
                }]},
            },
        }))
        return [workload]

    def inference_pool_target(self, deployment):
        return InferencePoolTarget(selector={"app": deployment.name}, target_port=8080)


def synth(model_id: str):
    app = cdk8s.App()
    ProviderRegistry(app, "Providers", providers=[LlamaServerProvider()])
    chart = cdk8s.Chart(app, "llm", namespace="ml")
    md = ModelDeployment(chart, "phi", model=ModelOptions(id=model_id), engine=EngineOptions(engine_type=EngineType.LLAMACPP),
                         resources=ResourceOptions(cpu=cdk8s_plus_34.Cpu.units(4)))
    return app, md


app, md = synth("bartowski/phi-4-GGUF")
assert md.provider_name == "llama-server", md.provider_name
assert "matched capabilities" in md.provider_selected_reason, md.provider_selected_reason
yaml = app.synth_yaml()
assert "image: ghcr.io/ggml-org/llama.cpp:server" in yaml, yaml
assert "- bartowski/phi-4-GGUF" in yaml, yaml
assert "kind: Workspace" not in yaml, "KAITO was chosen instead of the Python provider"

app, md = synth("microsoft/phi-4")
try:
    app.synth_yaml()
    raise AssertionError("the Python provider's validation did not fail the synth")
except Exception as e:
    assert 'spec.model.id: Invalid value: "microsoft/phi-4": llama-server loads GGUF repositories only' in str(e), str(e)

print("python custom provider: 1 passed, 0 failed")
