// A Go test (franz-go) that uses odradek as its Kafka: TestMain starts `odradek serve` with the
// control API on free ports, the test injects a fault over HTTP and checks the client's retries.
//
//	go test ./...                      # `odradek` on PATH
//	ODRADEK="python -m odradek" go test ./...
package orders

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

var bootstrap, control string

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestMain(m *testing.M) {
	port, httpPort := freePort(), freePort()
	dir, _ := os.MkdirTemp("", "odradek-go-")
	defer os.RemoveAll(dir)
	command := strings.Fields(os.Getenv("ODRADEK"))
	if len(command) == 0 {
		command = []string{"odradek"}
	}
	args := append(command[1:], "serve", "--port", fmt.Sprint(port), "--http-port", fmt.Sprint(httpPort),
		"--data-dir", dir, "--override", "odradek.testing.control.enable=true")
	broker := exec.Command(command[0], args...)
	out, _ := broker.StdoutPipe()
	broker.Stderr = os.Stderr
	if err := broker.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot start odradek:", err)
		os.Exit(2)
	}
	ready := make(chan bool)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if strings.Contains(lines.Text(), "odradek ready") {
				ready <- true
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		fmt.Fprintln(os.Stderr, "odradek not ready in 60 s")
		broker.Process.Kill()
		os.Exit(2)
	}
	bootstrap = fmt.Sprintf("127.0.0.1:%d", port)
	control = fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	code := m.Run()
	broker.Process.Signal(os.Interrupt)
	broker.Wait()
	os.Exit(code)
}

// inject answers the next `times` Produce requests for topic with err, returning the fault's id.
func inject(t *testing.T, fault map[string]any) int {
	body, _ := json.Marshal(fault)
	resp, err := http.Post(control+"/control/faults", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		ID    int    `json:"id"`
		Error string `json:"error"`
	}
	json.NewDecoder(resp.Body).Decode(&answer)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("fault refused (%d): %s", resp.StatusCode, answer.Error)
	}
	return answer.ID
}

func TestProduceSurvivesNotLeaderTwice(t *testing.T) {
	inject(t, map[string]any{"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER", "times": 2, "topic": "orders"})
	// NOT_LEADER_OR_FOLLOWER makes franz-go refresh its metadata before the retry: at most every
	// MetadataMinAge (5 s by default), shortened here so the test is quick
	client, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.AllowAutoTopicCreation(),
		kgo.MetadataMinAge(50*time.Millisecond),
		kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond }))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := client.ProduceSync(ctx, &kgo.Record{Topic: "orders", Value: []byte("order-1")})
	if err := res.FirstErr(); err != nil {
		t.Fatalf("produce failed: %v", err)
	}
	if off := res[0].Record.Offset; off != 0 {
		t.Fatalf("offset %d, want 0", off)
	}
	// both refusals were taken: the fault is spent and gone
	resp, err := http.Get(control + "/control/faults")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var listed struct{ Faults []map[string]any }
	json.NewDecoder(resp.Body).Decode(&listed)
	if len(listed.Faults) != 0 {
		t.Fatalf("fault still there: %v", listed.Faults)
	}
}

func TestUnknownErrorNameIsRefused(t *testing.T) {
	body := strings.NewReader(`{"api": "Produce", "error": "NOT_A_LEADER"}`)
	resp, err := http.Post(control+"/control/faults", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", resp.StatusCode)
	}
}
