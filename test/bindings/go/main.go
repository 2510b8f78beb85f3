// Smoke test of the jsii-generated Go bindings (run by scripts/check-go-bindings.sh): the same
// deployment as examples/minimal-gpu.ts, written in Go. It prints the app's YAML; the script
// compares it with the TypeScript example's YAML and checks the objects by kind and name.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/maintainers/cdk8s-inference-go/cdk8sinference"
)

func main() {
	app := cdk8s.NewApp(nil)
	registry := cdk8sinference.NewProviderRegistry(app, jsii.String("Providers"), nil)
	for _, absent := range []string{"dynamo", "kaito", "kuberay", "llmd"} {
		registry.SetReady(jsii.String(absent), jsii.Bool(false))
	}

	chart := cdk8s.NewChart(app, jsii.String("minimal-gpu"), &cdk8s.ChartProps{Namespace: jsii.String("ml")})
	deployment := cdk8sinference.NewModelDeployment(chart, jsii.String("qwen"), &cdk8sinference.ModelDeploymentProps{
		Model:     &cdk8sinference.ModelOptions{Id: jsii.String("Qwen/Qwen3-0.6B")},
		Resources: &cdk8sinference.ResourceOptions{Gpu: &cdk8sinference.GpuOptions{Count: jsii.Number(1)}},
	})

	// Selection ran in the JavaScript kernel; its result must come back through the Go proxy.
	if name := *deployment.ProviderName(); name != "vllm" {
		fmt.Fprintf(os.Stderr, "expected provider vllm, got %s\n", name)
		os.Exit(1)
	}
	if deployment.EngineType() != cdk8sinference.EngineType_VLLM {
		fmt.Fprintf(os.Stderr, "expected engine vllm, got %v\n", deployment.EngineType())
		os.Exit(1)
	}

	// A bad input must come back from synth as the library's error naming the field path, the
	// value and what is allowed, not as a crash of the kernel.
	badApp := cdk8s.NewApp(nil)
	bad := cdk8s.NewChart(badApp, jsii.String("bad"), nil)
	cdk8sinference.NewModelDeployment(bad, jsii.String("bad"), &cdk8sinference.ModelDeploymentProps{
		Model:    &cdk8sinference.ModelOptions{Id: jsii.String("Qwen/Qwen3-0.6B")},
		Provider: &cdk8sinference.ProviderOptions{Name: jsii.String("no-such-provider")},
	})
	msg := panicMessage(func() { badApp.SynthYaml() })
	for _, want := range []string{"spec.provider.name", `"no-such-provider"`, "known providers: "} {
		if !strings.Contains(msg, want) {
			fmt.Fprintf(os.Stderr, "expected the unknown-provider error to contain %q, got %q\n", want, msg)
			os.Exit(1)
		}
	}

	fmt.Print(*app.SynthYaml())
}

// panicMessage runs f and returns the message of the error the jsii runtime panics with, or "".
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
