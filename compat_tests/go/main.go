// franz-go (kgo + kadm) against a Kafka-compatible broker, with exact expectations.
//
// Usage: franzgo-check HOST:PORT [check-name ...]
// Prints "PASS name" or "FAIL name: reason" per check; exits 1 if any check failed.
// Every check uses fresh topic and group names, so it can run again against the same broker.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

var (
	bootstrap string
	runID     = fmt.Sprintf("%x", time.Now().UnixNano()%0xffffffffff)
	seq       int
	adm       *kadm.Client
	admCl     *kgo.Client
)

func uniq(prefix string) string {
	seq++
	return fmt.Sprintf("fgo-%s-%s-%d", prefix, runID, seq)
}

// failure aborts a check (recovered by run).
type failure struct{ msg string }

func failf(format string, a ...any) { panic(failure{fmt.Sprintf(format, a...)}) }

func must(err error, what string) {
	if err != nil {
		failf("%s: %v", what, err)
	}
}

func eq(got, want any, what string) {
	if !reflect.DeepEqual(got, want) {
		failf("%s:\n      got  %#v\n      want %#v", what, got, want)
	}
}

func expectErr(err, want error, what string) {
	if !errors.Is(err, want) {
		failf("%s: got error %v, want %v", what, err, want)
	}
}

func ctxT(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

var closers []func()

func newClient(opts ...kgo.Opt) *kgo.Client {
	base := []kgo.Opt{kgo.SeedBrokers(bootstrap), kgo.ClientID("odradek-franz-go-check"), kgo.FetchMaxWait(300 * time.Millisecond)}
	cl, err := kgo.NewClient(append(base, opts...)...)
	must(err, "kgo.NewClient")
	closers = append(closers, cl.Close)
	return cl
}

func createTopic(topic string, partitions int32, configs map[string]*string) string {
	ctx, cancel := ctxT(15 * time.Second)
	defer cancel()
	r, err := adm.CreateTopic(ctx, partitions, 1, configs, topic)
	must(err, "CreateTopic")
	must(r.Err, "CreateTopic "+topic)
	// Wait until every partition has a leader in metadata.
	for deadline := time.Now().Add(10 * time.Second); ; {
		md, err := adm.Metadata(ctx, topic)
		if err == nil {
			t := md.Topics[topic]
			ok := t.Err == nil && len(t.Partitions) == int(partitions)
			for _, p := range t.Partitions {
				ok = ok && p.Leader >= 0
			}
			if ok {
				return topic
			}
		}
		if time.Now().After(deadline) {
			failf("topic %s not ready: %v", topic, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type rec struct {
	P       int32
	Off     int64
	Key     string
	Value   string
	Headers string
	TS      int64
}

func recOf(r *kgo.Record) rec {
	var hs []string
	for _, h := range r.Headers {
		hs = append(hs, h.Key+"="+string(h.Value))
	}
	key := "<nil>"
	if r.Key != nil {
		key = string(r.Key)
	}
	val := "<nil>"
	if r.Value != nil {
		val = string(r.Value)
	}
	return rec{r.Partition, r.Offset, key, val, strings.Join(hs, ","), r.Timestamp.UnixMilli()}
}

// consumeDirect reads partitions from the start (no group) until `n` records arrived.
func consumeDirect(topic string, n int, opts ...kgo.Opt) []*kgo.Record {
	cl := newClient(append([]kgo.Opt{kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart())}, opts...)...)
	defer cl.Close()
	return pollN(cl, n, "consuming "+topic)
}

func pollN(cl *kgo.Client, n int, what string) []*kgo.Record {
	ctx, cancel := ctxT(20 * time.Second)
	defer cancel()
	var out []*kgo.Record
	for len(out) < n {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			failf("timed out %s: have %d of %d records", what, len(out), n)
		}
		fs.EachError(func(t string, p int32, err error) { failf("fetch %s/%d: %v", t, p, err) })
		out = append(out, fs.Records()...)
	}
	return out
}

func strp(s string) *string { return &s }

// eventually retries fn (which fails via failf) until it passes or 10 s passed: for state the
// broker completes after answering (transaction markers, offsets committed in a transaction).
func eventually(fn func()) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok := func() (ok bool) {
			defer func() {
				if r := recover(); r != nil {
					if _, isFailure := r.(failure); !isFailure || time.Now().After(deadline) {
						panic(r)
					}
				}
			}()
			fn()
			return true
		}()
		if ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func produceSync(cl *kgo.Client, rs ...*kgo.Record) []*kgo.Record {
	ctx, cancel := ctxT(15 * time.Second)
	defer cancel()
	res := cl.ProduceSync(ctx, rs...)
	must(res.FirstErr(), "ProduceSync")
	return rs
}

// ---------------------------------------------------------------------------------------------

func checkAdminTopics() {
	ctx, cancel := ctxT(30 * time.Second)
	defer cancel()
	topic := createTopic(uniq("admin"), 3, map[string]*string{"retention.ms": strp("3600000"), "cleanup.policy": strp("compact,delete")})

	r, _ := adm.CreateTopic(ctx, 3, 1, nil, topic)
	expectErr(r.Err, kerr.TopicAlreadyExists, "CreateTopic again")
	r, _ = adm.CreateTopic(ctx, 1, 1, map[string]*string{"retention.ms": strp("abc")}, uniq("badcfg"))
	expectErr(r.Err, kerr.InvalidConfig, "CreateTopic with retention.ms=abc")
	r, _ = adm.CreateTopic(ctx, 0, 1, nil, uniq("zeroparts"))
	expectErr(r.Err, kerr.InvalidPartitions, "CreateTopic with 0 partitions")
	r, _ = adm.CreateTopic(ctx, 1, 2, nil, uniq("rf2"))
	expectErr(r.Err, kerr.InvalidReplicationFactor, "CreateTopic with replication factor 2")

	brokers, err := adm.ListBrokers(ctx)
	must(err, "ListBrokers")
	eq(len(brokers), 1, "broker count")
	node := brokers[0].NodeID
	md, err := adm.Metadata(ctx, topic)
	must(err, "Metadata")
	t := md.Topics[topic]
	must(t.Err, "metadata topic error")
	eq(t.IsInternal, false, "IsInternal")
	for p := int32(0); p < 3; p++ {
		pd := t.Partitions[p]
		eq([]any{pd.Partition, pd.Leader, pd.Replicas, pd.ISR, pd.Err}, []any{p, node, []int32{node}, []int32{node}, error(nil)}, fmt.Sprintf("partition %d", p))
	}
	eq(md.Controller, node, "controller")
	listed, err := adm.ListTopics(ctx)
	must(err, "ListTopics")
	eq(listed.Has(topic), true, "ListTopics has the topic")
	withInternal, err := adm.ListTopicsWithInternal(ctx)
	must(err, "ListTopicsWithInternal")
	eq(withInternal.Has(topic), true, "ListTopicsWithInternal has the topic")

	// Configs: describe, incremental alter (set, delete, append), validate-only, errors.
	describe := func() map[string]kadm.Config {
		rcs, err := adm.DescribeTopicConfigs(ctx, topic)
		must(err, "DescribeTopicConfigs")
		rc, err := rcs.On(topic, nil)
		must(err, "DescribeTopicConfigs.On")
		must(rc.Err, "DescribeTopicConfigs result")
		m := map[string]kadm.Config{}
		for _, c := range rc.Configs {
			m[c.Key] = c
		}
		return m
	}
	c := describe()
	eq([]any{*c["retention.ms"].Value, c["retention.ms"].Source.String()}, []any{"3600000", "DYNAMIC_TOPIC_CONFIG"}, "retention.ms")
	eq(*c["cleanup.policy"].Value, "compact,delete", "cleanup.policy")
	eq([]any{*c["segment.bytes"].Value, c["segment.bytes"].Source.String()}, []any{"1073741824", "DEFAULT_CONFIG"}, "segment.bytes")
	eq(*c["min.insync.replicas"].Value, "1", "min.insync.replicas")

	vr, err := adm.ValidateAlterTopicConfigs(ctx, []kadm.AlterConfig{{Name: "retention.ms", Value: strp("1000")}}, topic)
	must(err, "ValidateAlterTopicConfigs")
	must(vr[0].Err, "ValidateAlterTopicConfigs result")
	eq(*describe()["retention.ms"].Value, "3600000", "retention.ms after validate-only")

	ar, err := adm.AlterTopicConfigs(ctx, []kadm.AlterConfig{
		{Op: kadm.SetConfig, Name: "max.message.bytes", Value: strp("300000")},
		{Op: kadm.DeleteConfig, Name: "retention.ms"},
		{Op: kadm.SubtractConfig, Name: "cleanup.policy", Value: strp("delete")},
	}, topic)
	must(err, "AlterTopicConfigs")
	must(ar[0].Err, "AlterTopicConfigs result")
	eventually(func() { // Kafka's broker applies the controller's records a moment after the answer
		c := describe()
		eq([]any{*c["max.message.bytes"].Value, c["max.message.bytes"].Source.String()}, []any{"300000", "DYNAMIC_TOPIC_CONFIG"}, "max.message.bytes")
		eq([]any{*c["retention.ms"].Value, c["retention.ms"].Source.String()}, []any{"604800000", "DEFAULT_CONFIG"}, "retention.ms deleted")
		eq(*c["cleanup.policy"].Value, "compact", "cleanup.policy after subtract")
	})

	ar, _ = adm.AlterTopicConfigs(ctx, []kadm.AlterConfig{{Name: "retention.ms", Value: strp("abc")}}, topic)
	expectErr(ar[0].Err, kerr.InvalidConfig, "retention.ms=abc")
	ar, _ = adm.AlterTopicConfigs(ctx, []kadm.AlterConfig{{Name: "no.such.config", Value: strp("1")}}, topic)
	expectErr(ar[0].Err, kerr.InvalidConfig, "unknown config")

	bc, err := adm.DescribeBrokerConfigs(ctx, node)
	must(err, "DescribeBrokerConfigs")
	found := false
	for _, rc := range bc {
		for _, cfg := range rc.Configs {
			if cfg.Key == "message.max.bytes" {
				found = true
				eq(*cfg.Value, "1048588", "broker message.max.bytes")
			}
		}
	}
	eq(found, true, "broker config message.max.bytes described")

	// Partitions: grow by one, set to 5; shrinking is INVALID_PARTITIONS.
	cp, err := adm.CreatePartitions(ctx, 1, topic)
	must(err, "CreatePartitions")
	must(cp[topic].Err, "CreatePartitions result")
	up, err := adm.UpdatePartitions(ctx, 5, topic)
	must(err, "UpdatePartitions")
	must(up[topic].Err, "UpdatePartitions result")
	up, _ = adm.UpdatePartitions(ctx, 2, topic)
	expectErr(up[topic].Err, kerr.InvalidPartitions, "UpdatePartitions to 2")
	for deadline := time.Now().Add(10 * time.Second); ; {
		md, err = adm.Metadata(ctx, topic)
		if err == nil && len(md.Topics[topic].Partitions) == 5 {
			break
		}
		if time.Now().After(deadline) {
			failf("5 partitions not in metadata")
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Delete, and deleting again is UNKNOWN_TOPIC_OR_PARTITION.
	dr, err := adm.DeleteTopics(ctx, topic)
	must(err, "DeleteTopics")
	must(dr[topic].Err, "DeleteTopics result")
	dr, _ = adm.DeleteTopics(ctx, uniq("nosuch"))
	for _, d := range dr {
		expectErr(d.Err, kerr.UnknownTopicOrPartition, "DeleteTopics unknown")
	}
}

func checkAdminOffsets() {
	ctx, cancel := ctxT(30 * time.Second)
	defer cancel()
	topic := createTopic(uniq("offsets"), 2, nil)
	cl := newClient(kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	base := time.Now().Add(-time.Minute).Truncate(time.Millisecond)
	var rs []*kgo.Record
	for i := 0; i < 10; i++ {
		rs = append(rs, &kgo.Record{Partition: int32(i % 2), Value: []byte(fmt.Sprintf("v%d", i)), Timestamp: base.Add(time.Duration(i) * time.Second)})
	}
	produceSync(cl, rs...)

	end, err := adm.ListEndOffsets(ctx, topic)
	must(err, "ListEndOffsets")
	start, err := adm.ListStartOffsets(ctx, topic)
	must(err, "ListStartOffsets")
	for p := int32(0); p < 2; p++ {
		e, _ := end.Lookup(topic, p)
		s, _ := start.Lookup(topic, p)
		eq([]any{s.Offset, e.Offset, e.Err}, []any{int64(0), int64(5), error(nil)}, fmt.Sprintf("start/end of %d", p))
	}
	after, err := adm.ListOffsetsAfterMilli(ctx, base.Add(3500*time.Millisecond).UnixMilli(), topic)
	must(err, "ListOffsetsAfterMilli")
	a0, _ := after.Lookup(topic, 0) // records 0,2,4,6,8 at base+0,2,4,6,8 s -> offset 2 (base+4 s)
	a1, _ := after.Lookup(topic, 1) // records 1,3,5,7,9 at base+1,3,5,7,9 s -> offset 2 (base+5 s)
	eq([]any{a0.Offset, a0.Timestamp, a1.Offset, a1.Timestamp}, []any{int64(2), base.Add(4 * time.Second).UnixMilli(), int64(2), base.Add(5 * time.Second).UnixMilli()}, "offsets after milli")
	maxTS, err := adm.ListMaxTimestampOffsets(ctx, topic)
	must(err, "ListMaxTimestampOffsets")
	m1, _ := maxTS.Lookup(topic, 1)
	eq([]any{m1.Offset, m1.Timestamp}, []any{int64(4), base.Add(9 * time.Second).UnixMilli()}, "max timestamp offset")

	// DeleteRecords: partition 0 up to 3; beyond the end -> OFFSET_OUT_OF_RANGE.
	os := kadm.Offsets{}
	os.Add(kadm.Offset{Topic: topic, Partition: 0, At: 3})
	dr, err := adm.DeleteRecords(ctx, os)
	must(err, "DeleteRecords")
	d0, _ := dr.Lookup(topic, 0)
	eq([]any{d0.LowWatermark, d0.Err}, []any{int64(3), error(nil)}, "DeleteRecords result")
	start, _ = adm.ListStartOffsets(ctx, topic)
	s0, _ := start.Lookup(topic, 0)
	eq(s0.Offset, int64(3), "start offset after DeleteRecords")
	os = kadm.Offsets{}
	os.Add(kadm.Offset{Topic: topic, Partition: 1, At: 99})
	dr, _ = adm.DeleteRecords(ctx, os)
	d1, _ := dr.Lookup(topic, 1)
	expectErr(d1.Err, kerr.OffsetOutOfRange, "DeleteRecords beyond the end")

	got := consumeDirect(topic, 7)
	var p0 []rec
	for _, r := range got {
		if r.Partition == 0 {
			p0 = append(p0, rec{P: 0, Off: r.Offset, Value: string(r.Value), TS: r.Timestamp.UnixMilli()})
		}
	}
	eq(p0, []rec{{0, 3, "", "v6", "", base.Add(6 * time.Second).UnixMilli()}, {0, 4, "", "v8", "", base.Add(8 * time.Second).UnixMilli()}}, "partition 0 after DeleteRecords")
}

func checkProduceCodecs() {
	topic := createTopic(uniq("codecs"), 1, nil)
	codecs := []struct {
		name  string
		codec kgo.CompressionCodec
	}{{"none", kgo.NoCompression()}, {"gzip", kgo.GzipCompression()}, {"snappy", kgo.SnappyCompression()}, {"lz4", kgo.Lz4Compression()}, {"zstd", kgo.ZstdCompression()}}
	ts0 := time.UnixMilli(1700000000000)
	var want []rec
	off := int64(0)
	for _, c := range codecs {
		cl := newClient(kgo.DefaultProduceTopic(topic), kgo.ProducerBatchCompression(c.codec), kgo.ProducerLinger(50*time.Millisecond))
		var rs []*kgo.Record
		for i := 0; i < 5; i++ {
			r := &kgo.Record{Timestamp: ts0.Add(time.Duration(off) * time.Millisecond)}
			w := rec{P: 0, Off: off, Key: "<nil>", Value: "<nil>", TS: r.Timestamp.UnixMilli()}
			if i != 3 {
				r.Key = []byte(fmt.Sprintf("%s-k%d", c.name, i))
				w.Key = string(r.Key)
			}
			if i != 2 {
				r.Value = []byte(fmt.Sprintf("%s-v%d%s", c.name, i, strings.Repeat("x", 5000*i)))
				w.Value = string(r.Value)
			}
			if i != 1 {
				r.Headers = []kgo.RecordHeader{{Key: "h", Value: []byte(c.name)}, {Key: "h", Value: []byte("dup")}, {Key: "empty", Value: []byte{}}}
				w.Headers = "h=" + c.name + ",h=dup,empty="
			}
			rs = append(rs, r)
			want = append(want, w)
			off++
		}
		// Produce asynchronously so the five records share one batch.
		var wg sync.WaitGroup
		var firstErr error
		var mu sync.Mutex
		for _, r := range rs {
			wg.Add(1)
			cl.Produce(context.Background(), r, func(r *kgo.Record, err error) {
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				wg.Done()
			})
		}
		wg.Wait()
		must(firstErr, "produce "+c.name)
		for i, r := range rs {
			eq(r.Offset, want[len(want)-5+i].Off, c.name+" produced offset")
		}
		cl.Close()
	}
	got := consumeDirect(topic, len(want))
	var gotRecs []rec
	for _, r := range got {
		gotRecs = append(gotRecs, recOf(r))
	}
	eq(gotRecs, want, "records")
}

func checkProduceAcks() {
	topic := createTopic(uniq("acks"), 1, nil)
	all := newClient(kgo.DefaultProduceTopic(topic), kgo.RequiredAcks(kgo.AllISRAcks()))
	leader := newClient(kgo.DefaultProduceTopic(topic), kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
	none := newClient(kgo.DefaultProduceTopic(topic), kgo.RequiredAcks(kgo.NoAck()), kgo.DisableIdempotentWrite())
	r := produceSync(all, &kgo.Record{Value: []byte("all")})
	eq(r[0].Offset, int64(0), "acks=all offset")
	r = produceSync(leader, &kgo.Record{Value: []byte("leader")})
	eq(r[0].Offset, int64(1), "acks=1 offset")
	produceSync(none, &kgo.Record{Value: []byte("none")})
	// acks=0 is answered by nothing: wait until the record is in the log.
	for deadline := time.Now().Add(10 * time.Second); ; {
		end, err := adm.ListEndOffsets(context.Background(), topic)
		if o, _ := end.Lookup(topic, 0); err == nil && o.Offset == 3 {
			break
		}
		if time.Now().After(deadline) {
			failf("acks=0 record not in the log")
		}
		time.Sleep(20 * time.Millisecond)
	}
	r = produceSync(leader, &kgo.Record{Value: []byte("leader2")})
	eq(r[0].Offset, int64(3), "acks=1 offset after acks=0")
	got := consumeDirect(topic, 4)
	var vals []string
	var pids []int64
	for _, g := range got {
		vals = append(vals, fmt.Sprintf("%d:%s", g.Offset, g.Value))
		pids = append(pids, g.ProducerID)
	}
	eq(vals, []string{"0:all", "1:leader", "2:none", "3:leader2"}, "records")
	// The idempotent producer's batch carries its producer id; the others carry -1.
	if pids[0] < 0 || pids[1] != -1 || pids[2] != -1 || pids[3] != -1 {
		failf("producer ids %v: want [>=0 -1 -1 -1]", pids)
	}

	// A record too large for the topic: MESSAGE_TOO_LARGE.
	small := createTopic(uniq("small"), 1, map[string]*string{"max.message.bytes": strp("1000")})
	ctx, cancel := ctxT(10 * time.Second)
	defer cancel()
	// (uncompressed: franz-go compresses with snappy by default, and the limit is on the batch as sent)
	plainCl := newClient(kgo.ProducerBatchCompression(kgo.NoCompression()), kgo.RecordRetries(0))
	res := plainCl.ProduceSync(ctx, &kgo.Record{Topic: small, Value: []byte(strings.Repeat("x", 5000))})
	expectErr(res.FirstErr(), kerr.MessageTooLarge, "too large record")
	res = plainCl.ProduceSync(ctx, &kgo.Record{Topic: small, Value: []byte("fits")})
	must(res.FirstErr(), "record that fits")
	eq(res[0].Record.Offset, int64(0), "offset of the record that fits")
}

func checkIdempotentSequences() {
	topic := createTopic(uniq("idem"), 3, nil)
	cl := newClient(kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0))
	var rs []*kgo.Record
	for i := 0; i < 300; i++ {
		rs = append(rs, &kgo.Record{Partition: int32(i % 3), Value: []byte(fmt.Sprintf("%d", i))})
	}
	ctx, cancel := ctxT(20 * time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, len(rs))
	for _, r := range rs {
		wg.Add(1)
		cl.Produce(ctx, r, func(_ *kgo.Record, err error) {
			if err != nil {
				errs <- err
			}
			wg.Done()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		failf("produce: %v", err)
	}
	for i, r := range rs {
		eq(r.Offset, int64(i/3), fmt.Sprintf("offset of record %d", i))
	}
	got := consumeDirect(topic, 300)
	next := map[int32]int64{}
	pid := got[0].ProducerID
	for _, g := range got {
		if g.Offset != next[g.Partition] || string(g.Value) != fmt.Sprintf("%d", g.Offset*3+int64(g.Partition)) {
			failf("partition %d: offset %d value %s, want offset %d", g.Partition, g.Offset, g.Value, next[g.Partition])
		}
		if g.ProducerID != pid || pid < 0 || g.ProducerEpoch != 0 {
			failf("producer id/epoch %d/%d (first %d)", g.ProducerID, g.ProducerEpoch, pid)
		}
		next[g.Partition]++
	}
}

// groupCheck runs two members of one group (classic or KIP-848) through a rebalance.
func groupCheck(kip848 bool) {
	ctx, cancel := ctxT(40 * time.Second)
	defer cancel()
	topic := createTopic(uniq("group"), 4, nil)
	group := uniq("g")
	var mu sync.Mutex
	assigned := map[string]map[int32]bool{"a": {}, "b": {}}
	member := func(name string) *kgo.Client {
		opts := []kgo.Opt{
			kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.HeartbeatInterval(300 * time.Millisecond), kgo.SessionTimeout(6 * time.Second),
			kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, m map[string][]int32) {
				mu.Lock()
				defer mu.Unlock()
				for _, p := range m[topic] {
					assigned[name][p] = true
				}
			}),
			kgo.OnPartitionsRevoked(func(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
				mu.Lock()
				for _, p := range m[topic] {
					delete(assigned[name], p)
				}
				mu.Unlock()
				cl.CommitMarkedOffsets(ctx)
			}),
			kgo.AutoCommitMarks(),
		}
		if kip848 {
			opts = append(opts, kgo.ServerSideBalancer(), kgo.Balancers(kgo.RangeBalancer()))
		}
		return newClient(opts...)
	}
	count := func(name string) int {
		mu.Lock()
		defer mu.Unlock()
		return len(assigned[name])
	}
	producer := newClient(kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	var rs []*kgo.Record
	for i := 0; i < 20; i++ {
		rs = append(rs, &kgo.Record{Partition: int32(i % 4), Value: []byte(fmt.Sprintf("m%d", i))})
	}
	produceSync(producer, rs...)

	type seen struct {
		who string
		r   *kgo.Record
	}
	seenCh := make(chan seen, 100)
	pollLoop := func(name string, cl *kgo.Client, stop <-chan struct{}, done chan<- struct{}) {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			pctx, pcancel := context.WithTimeout(ctx, 200*time.Millisecond)
			fs := cl.PollFetches(pctx)
			pcancel()
			fs.EachRecord(func(r *kgo.Record) {
				seenCh <- seen{name, r}
				cl.MarkCommitRecords(r)
			})
			if err := cl.CommitMarkedOffsets(ctx); err != nil && ctx.Err() == nil {
				seenCh <- seen{"commit-error:" + err.Error(), nil}
			}
		}
	}
	a := member("a")
	stopA, doneA := make(chan struct{}), make(chan struct{})
	go pollLoop("a", a, stopA, doneA)
	// a alone gets everything and consumes the first 20 records.
	got := map[string]string{}
	for len(got) < 20 {
		select {
		case s := <-seenCh:
			if s.r == nil {
				failf("%s", s.who)
			}
			got[fmt.Sprintf("%d/%d", s.r.Partition, s.r.Offset)] = s.who + ":" + string(s.r.Value)
		case <-ctx.Done():
			failf("timed out: %d records by a", len(got))
		}
	}
	eq(count("a"), 4, "a's partitions alone")

	b := member("b")
	stopB, doneB := make(chan struct{}), make(chan struct{})
	go pollLoop("b", b, stopB, doneB)
	for count("a") != 2 || count("b") != 2 {
		if ctx.Err() != nil {
			failf("no 2+2 assignment: a=%v b=%v", assigned["a"], assigned["b"])
		}
		time.Sleep(50 * time.Millisecond)
	}
	// New records go to whichever member owns their partition, each exactly once.
	rs = nil
	for i := 20; i < 40; i++ {
		rs = append(rs, &kgo.Record{Partition: int32(i % 4), Value: []byte(fmt.Sprintf("m%d", i))})
	}
	produceSync(producer, rs...)
	for len(got) < 40 {
		select {
		case s := <-seenCh:
			if s.r == nil {
				failf("%s", s.who)
			}
			key := fmt.Sprintf("%d/%d", s.r.Partition, s.r.Offset)
			if prev, dup := got[key]; dup {
				failf("record %s twice: %s and %s:%s", key, prev, s.who, s.r.Value)
			}
			mu.Lock()
			owns := assigned[s.who][s.r.Partition]
			mu.Unlock()
			if !owns {
				failf("%s got partition %d it does not own", s.who, s.r.Partition)
			}
			got[key] = s.who + ":" + string(s.r.Value)
		case <-ctx.Done():
			failf("timed out: %d records", len(got))
		}
	}

	// Group state as the admin sees it while both members are in.
	if kip848 {
		dg, err := adm.DescribeConsumerGroups(ctx, group)
		must(err, "DescribeConsumerGroups")
		d := dg[group]
		must(d.Err, "DescribeConsumerGroups result")
		eq([]any{d.State, d.AssignorName, len(d.Members), d.AssignedPartitions().Sorted()[0].Partitions},
			[]any{"Stable", "range", 2, []int32{0, 1, 2, 3}}, "consumer group description")
	} else {
		dg, err := adm.DescribeGroups(ctx, group)
		must(err, "DescribeGroups")
		d := dg[group]
		must(d.Err, "DescribeGroups result")
		eq([]any{d.State, d.ProtocolType, d.Protocol, len(d.Members)}, []any{"Stable", "consumer", "cooperative-sticky", 2}, "group description")
	}
	wantType := "classic"
	if kip848 {
		wantType = "consumer"
	}
	lg, err := adm.ListGroupsByType(ctx, []string{wantType})
	must(err, "ListGroupsByType")
	eq([]any{lg[group].ProtocolType, lg[group].State}, []any{"consumer", "Stable"}, "listed group of type "+wantType)

	close(stopA)
	close(stopB)
	<-doneA
	<-doneB
	must(a.CommitMarkedOffsets(ctx), "final commit a")
	must(b.CommitMarkedOffsets(ctx), "final commit b")
	a.LeaveGroup()
	b.LeaveGroup()
	a.Close()
	b.Close()

	fo, err := adm.FetchOffsets(ctx, group)
	must(err, "FetchOffsets")
	for p := int32(0); p < 4; p++ {
		o, ok := fo.Lookup(topic, p)
		eq([]any{ok, o.At, o.Err}, []any{true, int64(10), error(nil)}, fmt.Sprintf("committed offset of %d", p))
	}
	lag, err := adm.Lag(ctx, group)
	must(err, "Lag")
	eq(lag[group].Lag.Total(), int64(0), "total lag")

	// Admin offset commit + a new member resumes from it.
	os := kadm.Offsets{}
	os.Add(kadm.Offset{Topic: topic, Partition: 2, At: 7})
	must(adm.CommitAllOffsets(ctx, group, os), "CommitAllOffsets")
	c := newClient(kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic), kgo.DisableAutoCommit())
	recs := pollN(c, 3, "resume from committed")
	var resumed []string
	for _, r := range recs {
		resumed = append(resumed, fmt.Sprintf("%d/%d", r.Partition, r.Offset))
	}
	eq(resumed, []string{"2/7", "2/8", "2/9"}, "resumed records")
	c.LeaveGroup()
	c.Close()

	dgs, err := adm.DeleteGroups(ctx, group)
	must(err, "DeleteGroups")
	must(dgs[group].Err, "DeleteGroups result")
	dgs, _ = adm.DeleteGroups(ctx, group)
	expectErr(dgs[group].Err, kerr.GroupIDNotFound, "DeleteGroups again")
}

func checkTransactions() {
	ctx, cancel := ctxT(30 * time.Second)
	defer cancel()
	topic := createTopic(uniq("txn"), 1, nil)
	txid := uniq("tid")
	p := newClient(kgo.DefaultProduceTopic(topic), kgo.TransactionalID(txid), kgo.TransactionTimeout(20*time.Second))
	run := func(commit kgo.TransactionEndTry, vals ...string) {
		must(p.BeginTransaction(), "BeginTransaction")
		var rs []*kgo.Record
		for _, v := range vals {
			rs = append(rs, &kgo.Record{Value: []byte(v)})
		}
		produceSync(p, rs...)
		must(p.EndTransaction(ctx, commit), "EndTransaction")
	}
	run(kgo.TryCommit, "c0", "c1") // 0,1 + marker 2
	run(kgo.TryAbort, "a0")        // 3 + marker 4
	run(kgo.TryCommit, "c2")       // 5 + marker 6

	eventually(func() {
		dt, err := adm.DescribeTransactions(ctx, txid)
		must(err, "DescribeTransactions")
		eq([]any{dt[txid].State, dt[txid].Err}, []any{"CompleteCommit", error(nil)}, "described transaction")
	})

	// An open transaction holds back read_committed consumers (LSO), not read_uncommitted ones.
	must(p.BeginTransaction(), "BeginTransaction (open)")
	produceSync(p, &kgo.Record{Value: []byte("open")}) // 7
	plain := newClient(kgo.DefaultProduceTopic(topic))
	produceSync(plain, &kgo.Record{Value: []byte("end")}) // 8

	committedEnd, err := adm.ListCommittedOffsets(ctx, topic)
	must(err, "ListCommittedOffsets")
	ce, _ := committedEnd.Lookup(topic, 0)
	end, _ := adm.ListEndOffsets(ctx, topic)
	e0, _ := end.Lookup(topic, 0)
	eq([]any{ce.Offset, e0.Offset}, []any{int64(7), int64(9)}, "last stable offset, high watermark")

	vals := func(rs []*kgo.Record) []string {
		var out []string
		for _, r := range rs {
			out = append(out, fmt.Sprintf("%d:%s", r.Offset, r.Value))
		}
		return out
	}
	eq(vals(consumeDirect(topic, 6, kgo.FetchIsolationLevel(kgo.ReadUncommitted()))),
		[]string{"0:c0", "1:c1", "3:a0", "5:c2", "7:open", "8:end"}, "read_uncommitted")
	rc := newClient(kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	eq(vals(pollN(rc, 3, "read_committed")), []string{"0:c0", "1:c1", "5:c2"}, "read_committed before the end")
	pctx, pcancel := context.WithTimeout(ctx, 700*time.Millisecond)
	extra := rc.PollFetches(pctx).Records()
	pcancel()
	eq(len(extra), 0, "read_committed records past the LSO")
	must(p.EndTransaction(ctx, kgo.TryAbort), "abort the open transaction")
	eq(vals(pollN(rc, 1, "read_committed after abort")), []string{"8:end"}, "read_committed after abort")

	// A second producer with the same transactional id fences the first.
	p2 := newClient(kgo.DefaultProduceTopic(topic), kgo.TransactionalID(txid))
	must(p2.BeginTransaction(), "BeginTransaction p2")
	produceSync(p2, &kgo.Record{Value: []byte("p2")})
	must(p2.EndTransaction(ctx, kgo.TryCommit), "EndTransaction p2")
	must(p.BeginTransaction(), "BeginTransaction fenced")
	res := p.ProduceSync(ctx, &kgo.Record{Value: []byte("zombie")})
	if err := res.FirstErr(); !errors.Is(err, kerr.ProducerFenced) && !errors.Is(err, kerr.InvalidProducerEpoch) {
		failf("fenced producer: got %v, want PRODUCER_FENCED or INVALID_PRODUCER_EPOCH", err)
	}
}

func checkGroupTransactSession() {
	ctx, cancel := ctxT(40 * time.Second)
	defer cancel()
	in := createTopic(uniq("eosin"), 2, nil)
	out := createTopic(uniq("eosout"), 1, nil)
	group := uniq("eosg")
	src := newClient(kgo.DefaultProduceTopic(in), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	var rs []*kgo.Record
	for i := 0; i < 10; i++ {
		rs = append(rs, &kgo.Record{Partition: int32(i % 2), Value: []byte(fmt.Sprintf("in%d", i))})
	}
	produceSync(src, rs...)

	sess, err := kgo.NewGroupTransactSession(
		kgo.SeedBrokers(bootstrap), kgo.ClientID("odradek-franz-go-check"), kgo.FetchMaxWait(300*time.Millisecond),
		kgo.TransactionalID(uniq("eostid")), kgo.TransactionTimeout(20*time.Second),
		kgo.ConsumerGroup(group), kgo.ConsumeTopics(in), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.DefaultProduceTopic(out),
		kgo.HeartbeatInterval(300*time.Millisecond), kgo.SessionTimeout(6*time.Second),
	)
	must(err, "NewGroupTransactSession")
	defer sess.Close()
	// First round: transform what is polled, then abort -> nothing visible, offsets not moved.
	// Second round: the same records again (offsets were not committed), commit.
	for round, commit := range []kgo.TransactionEndTry{kgo.TryAbort, kgo.TryCommit} {
		seen := 0
		must(sess.Begin(), "Begin")
		for seen < 10 {
			fs := sess.PollFetches(ctx)
			if ctx.Err() != nil {
				failf("round %d: timed out with %d records", round, seen)
			}
			fs.EachError(func(t string, p int32, err error) { failf("fetch %s/%d: %v", t, p, err) })
			fs.EachRecord(func(r *kgo.Record) {
				seen++
				sess.Produce(ctx, &kgo.Record{Key: r.Value, Value: []byte(strings.ToUpper(string(r.Value)))}, nil)
			})
		}
		committed, err := sess.End(ctx, commit)
		must(err, fmt.Sprintf("End round %d", round))
		eq(committed, commit == kgo.TryCommit, fmt.Sprintf("round %d committed", round))
		if commit == kgo.TryAbort {
			fo, err := adm.FetchOffsets(ctx, group)
			must(err, "FetchOffsets after abort")
			for p := int32(0); p < 2; p++ {
				if o, ok := fo.Lookup(in, p); ok && o.At >= 0 {
					failf("offset committed by an aborted transaction: %d -> %d", p, o.At)
				}
			}
		}
	}
	eventually(func() {
		fo, err := adm.FetchOffsets(ctx, group)
		must(err, "FetchOffsets")
		for p := int32(0); p < 2; p++ {
			o, ok := fo.Lookup(in, p)
			eq([]any{ok, o.At}, []any{true, int64(5)}, fmt.Sprintf("committed offset of %d (%v)", p, fo))
		}
	})
	plain := newClient(kgo.DefaultProduceTopic(out))
	produceSync(plain, &kgo.Record{Value: []byte("END")})
	rc := newClient(kgo.ConsumeTopics(out), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	got := pollN(rc, 11, "committed output")
	var vals []string
	for _, r := range got {
		vals = append(vals, string(r.Value))
	}
	last := vals[len(vals)-1]
	sort.Strings(vals[:10])
	eq(append(vals[:10:10], last), []string{"IN0", "IN1", "IN2", "IN3", "IN4", "IN5", "IN6", "IN7", "IN8", "IN9", "END"}, "committed output")
}

// ---------------------------------------------------------------------------------------------

func run(name string, fn func()) (ok bool) {
	t0 := time.Now()
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
		closers = nil
		if r := recover(); r != nil {
			f, isFailure := r.(failure)
			if isFailure {
				fmt.Printf("FAIL %s: %s\n", name, f.msg)
			} else {
				fmt.Printf("FAIL %s: panic %v\n", name, r)
			}
			ok = false
			return
		}
		fmt.Printf("PASS %s (%d ms)\n", name, time.Since(t0).Milliseconds())
	}()
	fn()
	return true
}

func main() {
	if len(os.Args) < 2 {
		fmt.Println("usage: franzgo-check HOST:PORT [check ...]")
		os.Exit(2)
	}
	bootstrap = os.Args[1]
	only := map[string]bool{}
	for _, a := range os.Args[2:] {
		only[a] = true
	}
	var err error
	admCl, err = kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.ClientID("odradek-franz-go-admin"))
	if err != nil {
		fmt.Println("FAIL main:", err)
		os.Exit(2)
	}
	adm = kadm.NewClient(admCl)
	checks := []struct {
		name string
		fn   func()
	}{
		{"admin.topicsConfigsPartitions", checkAdminTopics},
		{"admin.listOffsetsDeleteRecords", checkAdminOffsets},
		{"produce.codecsKeysHeadersTimestamps", checkProduceCodecs},
		{"produce.acks", checkProduceAcks},
		{"produce.idempotentSequences", checkIdempotentSequences},
		{"group.classic", func() { groupCheck(false) }},
		{"group.kip848", func() { groupCheck(true) }},
		{"txn.commitAbortReadCommitted", checkTransactions},
		{"txn.groupTransactSession", checkGroupTransactSession},
	}
	failed := 0
	for _, c := range checks {
		if len(only) > 0 && !only[c.name] {
			continue
		}
		if !run(c.name, c.fn) {
			failed++
		}
	}
	admCl.Close()
	if failed > 0 {
		os.Exit(1)
	}
}
