package odradek.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Java kafka-clients (producer, consumer, Admin) against a Kafka-compatible broker.
 * Prints "PASS name" or "FAIL name: reason" per check and a closing
 * "java-clients VERSION: N passed, M failed" line; exits 1 if any check failed.
 * Usage: JavaClientsCheck BOOTSTRAP [CHECK ...]   (no CHECK names: run all)
 */
public final class JavaClientsCheck {

    interface Check { void run() throws Exception; }

    static final class CheckFailed extends RuntimeException {
        CheckFailed(String msg) { super(msg); }
    }

    static void expect(boolean cond, String fmt, Object... args) {
        if (!cond) throw new CheckFailed(String.format(fmt, args));
    }

    static void expectEq(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual))
            throw new CheckFailed(what + ": expected " + expected + " but got " + actual);
    }

    private final String bootstrap;
    private final String run;   // unique per run: topics and groups never collide between versions/runs
    private final Admin admin;
    private int passed, failed;

    JavaClientsCheck(String bootstrap) {
        this.bootstrap = bootstrap;
        this.run = "j" + AppInfoParser.getVersion().replace('.', '_') + "-" + Long.toHexString(System.nanoTime() & 0xffffffL);
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20000);
        this.admin = Admin.create(p);
    }

    // ---- client factories ----------------------------------------------------------------

    KafkaProducer<byte[], byte[]> producer(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20000);
        p.putAll(extra);
        return new KafkaProducer<>(p);
    }

    KafkaConsumer<byte[], byte[]> consumer(String group, Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10000);
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20000);
        if (group != null) p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.putAll(extra);
        return new KafkaConsumer<>(p);
    }

    String createTopic(String suffix, int partitions) throws Exception {
        return createTopic(suffix, partitions, Map.of());
    }

    String createTopic(String suffix, int partitions, Map<String, String> configs) throws Exception {
        String name = run + "-" + suffix;
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get(20, TimeUnit.SECONDS);
        waitForLeaders(name, partitions);
        return name;
    }

    void waitForLeaders(String topic, int partitions) throws Exception {
        long deadline = System.currentTimeMillis() + 15000;
        while (true) {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
                if (d.partitions().size() == partitions && d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()))
                    return;
            } catch (ExecutionException e) {
                if (System.currentTimeMillis() > deadline) throw e;
            }
            if (System.currentTimeMillis() > deadline) throw new CheckFailed("topic " + topic + " has no leaders in time");
            Thread.sleep(50);
        }
    }

    static byte[] b(String s) { return s == null ? null : s.getBytes(StandardCharsets.UTF_8); }
    static String s(byte[] b) { return b == null ? null : new String(b, StandardCharsets.UTF_8); }

    static String headersToString(Iterable<Header> hs) {
        List<String> out = new ArrayList<>();
        for (Header h : hs) out.add(h.key() + "=" + (h.value() == null ? "<null>" : s(h.value())));
        return String.join(",", out);
    }

    /** Poll until `count` records arrived (or the deadline), returning them in arrival order. */
    static List<ConsumerRecord<byte[], byte[]>> pollN(KafkaConsumer<byte[], byte[]> c, int count, long timeoutMs) {
        List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (got.size() < count && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) got.add(r);
        }
        return got;
    }

    Map<TopicPartition, Long> listOffsets(String topic, int partitions, OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        for (int i = 0; i < partitions; i++) req.put(new TopicPartition(topic, i), spec);
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(req).all().get().forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    // ---- the checks ----------------------------------------------------------------------

    void describeCluster() throws Exception {
        DescribeClusterResult r = admin.describeCluster();
        String clusterId = r.clusterId().get();
        Collection<Node> nodes = r.nodes().get();
        Node controller = r.controller().get();
        expect(clusterId != null && !clusterId.isEmpty(), "empty cluster id");
        expect(nodes.size() >= 1, "no nodes");
        expect(controller != null, "no controller");
        Set<String> addrs = nodes.stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.toSet());
        expect(addrs.contains(bootstrap), "nodes %s do not include the bootstrap %s", addrs, bootstrap);
    }

    void createTopics() throws Exception {
        String name = run + "-create";
        CreateTopicsResult r = admin.createTopics(List.of(
                new NewTopic(name, 3, (short) 1).configs(Map.of("retention.ms", "3600000", "cleanup.policy", "delete"))));
        r.all().get();
        expectEq(3, r.numPartitions(name).get(), "numPartitions");
        expectEq(1, r.replicationFactor(name).get(), "replicationFactor");
        Uuid id = r.topicId(name).get();
        expect(id != null && !id.equals(Uuid.ZERO_UUID), "topic id %s", id);
        Config cfg = r.config(name).get();
        expectEq("3600000", cfg.get("retention.ms").value(), "retention.ms in CreateTopics result");
        // a second create fails with TopicExistsException
        try {
            admin.createTopics(List.of(new NewTopic(name, 3, (short) 1))).all().get();
            throw new CheckFailed("second createTopics succeeded");
        } catch (ExecutionException e) {
            expect(e.getCause() instanceof TopicExistsException, "second create: %s", e.getCause());
        }
        // validateOnly creates nothing
        String dry = run + "-dry";
        admin.createTopics(List.of(new NewTopic(dry, 1, (short) 1)),
                new org.apache.kafka.clients.admin.CreateTopicsOptions().validateOnly(true)).all().get();
        expect(!admin.listTopics().names().get().contains(dry), "validateOnly created the topic");
        waitForLeaders(name, 3);
    }

    void listTopics() throws Exception {
        String name = createTopic("list", 2);
        Set<String> names = admin.listTopics().names().get();
        expect(names.contains(name), "listTopics lacks %s", name);
        expect(!names.contains("__consumer_offsets"), "internal topic listed without listInternal");
        Map<String, ?> all = admin.listTopics(new ListTopicsOptions().listInternal(true)).namesToListings().get();
        expect(all.containsKey(name), "listInternal lacks %s", name);
    }

    void describeTopics() throws Exception {
        String name = createTopic("describe", 3);
        TopicDescription d = admin.describeTopics(List.of(name)).allTopicNames().get().get(name);
        expectEq(name, d.name(), "name");
        expect(!d.isInternal(), "internal");
        expectEq(3, d.partitions().size(), "partition count");
        for (int i = 0; i < 3; i++) {
            TopicPartitionInfo p = d.partitions().get(i);
            expectEq(i, p.partition(), "partition order");
            expect(p.leader() != null && !p.leader().isEmpty(), "no leader for %d", i);
            expectEq(1, p.replicas().size(), "replicas");
            expectEq(1, p.isr().size(), "isr");
        }
        // by topic id, too
        Uuid id = d.topicId();
        TopicDescription byId = admin.describeTopics(TopicCollection.ofTopicIds(List.of(id))).allTopicIds().get().get(id);
        expectEq(name, byId.name(), "describe by id");
        // an unknown topic fails with UnknownTopicOrPartitionException
        try {
            admin.describeTopics(List.of(run + "-nope")).allTopicNames().get();
            throw new CheckFailed("describe of a missing topic succeeded");
        } catch (ExecutionException e) {
            expect(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException,
                    "missing topic: %s", e.getCause());
        }
    }

    /** Every codec, the default idempotent producer (acks=all), headers: read back exactly. */
    void produceEveryCodec() throws Exception {
        String[] codecs = {"none", "gzip", "snappy", "lz4", "zstd"};
        String topic = createTopic("codecs", 2);
        List<ProducerRecord<byte[], byte[]>> sent = new ArrayList<>();
        long ts0 = System.currentTimeMillis() - 60000;
        int n = 0;
        for (String codec : codecs) {
            try (KafkaProducer<byte[], byte[]> p = producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                    ProducerConfig.LINGER_MS_CONFIG, 5))) {
                List<java.util.concurrent.Future<RecordMetadata>> fs = new ArrayList<>();
                for (int i = 0; i < 200; i++, n++) {
                    List<Header> hs = new ArrayList<>();
                    hs.add(new RecordHeader("codec", b(codec)));
                    hs.add(new RecordHeader("i", b(Integer.toString(i))));
                    if (i % 3 == 0) hs.add(new RecordHeader("i", b("dup")));   // repeated keys keep their order
                    if (i % 5 == 0) hs.add(new RecordHeader("nullv", null));
                    byte[] key = i % 7 == 0 ? null : b("k" + i);
                    byte[] value = i % 11 == 0 ? null : b(codec + "-" + i + "-" + "x".repeat(i % 50));
                    ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, i % 2, ts0 + n, key, value, hs);
                    sent.add(r);
                    fs.add(p.send(r));
                }
                p.flush();
                for (var f : fs) f.get();
            }
        }
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of())) {
            List<TopicPartition> tps = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            c.assign(tps);
            c.seekToBeginning(tps);
            List<ConsumerRecord<byte[], byte[]>> got = pollN(c, sent.size(), 20000);
            expectEq(sent.size(), got.size(), "records read back");
            for (int part = 0; part < 2; part++) {
                final int fp = part;
                List<ProducerRecord<byte[], byte[]>> exp = sent.stream().filter(r -> r.partition() == fp).collect(Collectors.toList());
                List<ConsumerRecord<byte[], byte[]>> act = got.stream().filter(r -> r.partition() == fp).collect(Collectors.toList());
                expectEq(exp.size(), act.size(), "count in partition " + part);
                for (int i = 0; i < exp.size(); i++) {
                    var e = exp.get(i);
                    var a = act.get(i);
                    expectEq((long) i, a.offset(), "offset");
                    expect(Arrays.equals(e.key(), a.key()), "key at %d/%d", part, i);
                    expect(Arrays.equals(e.value(), a.value()), "value at %d/%d", part, i);
                    expectEq(e.timestamp(), a.timestamp(), "timestamp at " + part + "/" + i);
                    expectEq(headersToString(e.headers()), headersToString(a.headers()), "headers at " + part + "/" + i);
                }
            }
        }
    }

    /** acks=all, explicit idempotence, and acks=1: offsets are contiguous per partition. */
    void produceAcks() throws Exception {
        String topic = createTopic("acks", 1);
        long expected = 0;
        for (Map<String, Object> cfg : List.<Map<String, Object>>of(
                Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                Map.of(ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false),
                Map.of())) {
            try (KafkaProducer<byte[], byte[]> p = producer(cfg)) {
                for (int i = 0; i < 50; i++) {
                    RecordMetadata md = p.send(new ProducerRecord<>(topic, 0, null, b("v" + i))).get();
                    expectEq(expected++, md.offset(), "offset with " + cfg);
                    expect(md.hasTimestamp() && md.timestamp() > 0, "timestamp in metadata");
                }
            }
        }
        Map<TopicPartition, Long> end = listOffsets(topic, 1, OffsetSpec.latest());
        expectEq(expected, end.get(new TopicPartition(topic, 0)), "latest offset");
    }

    /** Subscribe with a group: commitSync, commitAsync, committed(), restart resumes where committed. */
    void consumerGroupCommits() throws Exception {
        String topic = createTopic("group", 3);
        String group = run + "-g1";
        produceN(topic, 3, 90, "a");
        try (KafkaConsumer<byte[], byte[]> c = consumer(group, Map.of())) {
            c.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> got = pollN(c, 90, 30000);
            expectEq(90, got.size(), "records in first generation");
            c.commitSync();
            Map<TopicPartition, OffsetAndMetadata> committed = c.committed(new HashSet<>(c.assignment()));
            for (int i = 0; i < 3; i++) {
                TopicPartition tp = new TopicPartition(topic, i);
                expectEq(30L, committed.get(tp).offset(), "committed offset of " + tp);
            }
            // commitAsync with explicit offsets and metadata
            produceN(topic, 3, 9, "b");
            expectEq(9, pollN(c, 9, 20000).size(), "records after commitSync");
            AtomicReference<Exception> err = new AtomicReference<>();
            AtomicBoolean done = new AtomicBoolean();
            Map<TopicPartition, OffsetAndMetadata> offs = new HashMap<>();
            for (int i = 0; i < 3; i++) offs.put(new TopicPartition(topic, i), new OffsetAndMetadata(33L, "meta-" + i));
            c.commitAsync(offs, (o, e) -> { err.set(e); done.set(true); });
            long deadline = System.currentTimeMillis() + 15000;
            while (!done.get() && System.currentTimeMillis() < deadline) c.poll(Duration.ofMillis(100));
            expect(done.get(), "commitAsync callback never ran");
            expect(err.get() == null, "commitAsync failed: %s", err.get());
            committed = c.committed(offs.keySet());
            for (var e : offs.entrySet()) {
                expectEq(33L, committed.get(e.getKey()).offset(), "async committed offset");
                expectEq(e.getValue().metadata(), committed.get(e.getKey()).metadata(), "commit metadata");
            }
            // commitAsync without arguments commits the positions
            c.commitAsync();
            c.commitSync(Duration.ofSeconds(10));   // flushes the async one
        }
        // a new member of the group resumes from the committed positions: nothing left to read
        produceN(topic, 3, 6, "c");
        try (KafkaConsumer<byte[], byte[]> c = consumer(group, Map.of())) {
            c.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> got = pollN(c, 6, 30000);
            List<ConsumerRecord<byte[], byte[]>> extra = pollN(c, 1, 1000);
            expectEq(6, got.size() + extra.size(), "records after restart (no loss, no duplicates)");
            for (var r : got) expect(s(r.value()).startsWith("c-"), "re-read an old record %s", s(r.value()));
        }
    }

    void produceN(String topic, int partitions, int n, String prefix) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = producer(Map.of())) {
            for (int i = 0; i < n; i++) p.send(new ProducerRecord<>(topic, i % partitions, b("k" + i), b(prefix + "-" + i)));
            p.flush();
        }
    }

    void seek() throws Exception {
        String topic = createTopic("seek", 1);
        produceN(topic, 1, 40, "s");
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of())) {
            c.assign(List.of(tp));
            c.seek(tp, 10);
            List<ConsumerRecord<byte[], byte[]>> got = pollN(c, 30, 15000);
            expectEq(30, got.size(), "records after seek(10)");
            expectEq(10L, got.get(0).offset(), "first offset after seek");
            expectEq("s-10", s(got.get(0).value()), "first value after seek");
            c.seekToEnd(List.of(tp));
            expectEq(40L, c.position(tp), "position after seekToEnd");
            c.seekToBeginning(List.of(tp));
            expectEq(0L, c.position(tp), "position after seekToBeginning");
            c.seek(tp, new OffsetAndMetadata(39));
            got = pollN(c, 1, 10000);
            expectEq(39L, got.get(0).offset(), "offset after seek(OffsetAndMetadata)");
            expectEq(40L, c.endOffsets(List.of(tp)).get(tp), "endOffsets");
            expectEq(0L, c.beginningOffsets(List.of(tp)).get(tp), "beginningOffsets");
        }
    }

    void offsetsForTimes() throws Exception {
        String topic = createTopic("times", 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        long base = System.currentTimeMillis() - 3_600_000;
        try (KafkaProducer<byte[], byte[]> p = producer(Map.of())) {
            for (int i = 0; i < 10; i++)   // timestamps base, base+1000, ..., with one out of order
                p.send(new ProducerRecord<>(topic, 0, base + (i == 7 ? 9500 : i * 1000L), null, b("t" + i)));
            p.flush();
        }
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of())) {
            Map<TopicPartition, OffsetAndTimestamp> r = c.offsetsForTimes(Map.of(tp, base + 2500));
            expectEq(3L, r.get(tp).offset(), "offset for base+2500");
            expectEq(base + 3000, r.get(tp).timestamp(), "timestamp for base+2500");
            r = c.offsetsForTimes(Map.of(tp, base));
            expectEq(0L, r.get(tp).offset(), "offset for base");
            r = c.offsetsForTimes(Map.of(tp, base + 9200));   // first record with ts >= is offset 7 (ts 9500)
            expectEq(7L, r.get(tp).offset(), "offset for base+9200");
            r = c.offsetsForTimes(Map.of(tp, base + 100_000));
            expect(r.get(tp) == null, "offset for a future time should be null, got %s", r.get(tp));
        }
        ListOffsetsResult.ListOffsetsResultInfo info = admin.listOffsets(Map.of(tp, OffsetSpec.forTimestamp(base + 4500))).partitionResult(tp).get();
        expectEq(5L, info.offset(), "admin listOffsets forTimestamp");
        info = admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get();
        expectEq(0L, info.offset(), "earliest");
        info = admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get();
        expectEq(10L, info.offset(), "latest");
    }

    /** OffsetSpec.maxTimestamp(): the offset of the record with the largest timestamp, inside a batch. */
    void listOffsetsMaxTimestamp() throws Exception {
        String topic = createTopic("maxts", 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        long base = System.currentTimeMillis() - 3_600_000;
        try (KafkaProducer<byte[], byte[]> p = producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 50))) {
            for (int i = 0; i < 10; i++)   // one batch; the max timestamp is record 7's
                p.send(new ProducerRecord<>(topic, 0, base + (i == 7 ? 9500 : i * 1000L), null, b("t" + i)));
            p.flush();
        }
        ListOffsetsResult.ListOffsetsResultInfo info = admin.listOffsets(Map.of(tp, OffsetSpec.maxTimestamp())).partitionResult(tp).get();
        expectEq(base + 9500, info.timestamp(), "maxTimestamp timestamp");
        expectEq(7L, info.offset(), "maxTimestamp offset");
    }

    void pauseResume() throws Exception {
        String topic = createTopic("pause", 2);
        produceN(topic, 2, 20, "p");
        TopicPartition p0 = new TopicPartition(topic, 0), p1 = new TopicPartition(topic, 1);
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of())) {
            c.assign(List.of(p0, p1));
            c.seekToBeginning(List.of(p0, p1));
            c.pause(List.of(p1));
            expectEq(Set.of(p1), c.paused(), "paused()");
            List<ConsumerRecord<byte[], byte[]>> got = pollN(c, 10, 10000);
            got.addAll(pollN(c, 1, 1000));
            expectEq(10, got.size(), "records while p1 paused");
            expect(got.stream().allMatch(r -> r.partition() == 0), "got records of a paused partition");
            c.resume(List.of(p1));
            expect(c.paused().isEmpty(), "paused() after resume");
            got = pollN(c, 10, 10000);
            expectEq(10, got.size(), "records after resume");
            expect(got.stream().allMatch(r -> r.partition() == 1), "after resume: only p1 had records left");
        }
    }

    void consumerGroupsAdmin() throws Exception {
        String topic = createTopic("groups-admin", 2);
        String group = run + "-g2";
        produceN(topic, 2, 10, "x");
        try (KafkaConsumer<byte[], byte[]> c = consumer(group, Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "cid-" + run))) {
            c.subscribe(List.of(topic));
            expectEq(10, pollN(c, 10, 30000).size(), "records");
            c.commitSync();
            Collection<ConsumerGroupListing> groups = admin.listConsumerGroups().all().get();
            expect(groups.stream().anyMatch(g -> g.groupId().equals(group)), "listConsumerGroups lacks %s", group);
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
            expectEq(group, d.groupId(), "group id");
            expectEq(1, d.members().size(), "members");
            var m = d.members().iterator().next();
            expectEq("cid-" + run, m.clientId(), "member client id");
            expectEq(Set.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)), m.assignment().topicPartitions(), "member assignment");
            expectEq("range", d.partitionAssignor(), "assignor");
            expectEq("Stable", d.state().toString(), "group state");
            Map<TopicPartition, OffsetAndMetadata> offs = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            expectEq(5L, offs.get(new TopicPartition(topic, 0)).offset(), "listConsumerGroupOffsets p0");
            expectEq(5L, offs.get(new TopicPartition(topic, 1)).offset(), "listConsumerGroupOffsets p1");
        }
        ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
        expectEq(0, d.members().size(), "members after close");
        expectEq("Empty", d.state().toString(), "group state after close");
    }

    void deleteRecords() throws Exception {
        String topic = createTopic("delrec", 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        produceN(topic, 1, 20, "d");
        var lw = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(5))).lowWatermarks().get(tp).get();
        expectEq(5L, lw.lowWatermark(), "low watermark");
        expectEq(5L, listOffsets(topic, 1, OffsetSpec.earliest()).get(tp), "earliest after deleteRecords");
        expectEq(20L, listOffsets(topic, 1, OffsetSpec.latest()).get(tp), "latest after deleteRecords");
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of())) {
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            List<ConsumerRecord<byte[], byte[]>> got = pollN(c, 15, 10000);
            expectEq(15, got.size(), "records after deleteRecords");
            expectEq(5L, got.get(0).offset(), "first offset after deleteRecords");
            // a position below the log start: auto.offset.reset=earliest applies
            c.seek(tp, 1);
            got = pollN(c, 1, 10000);
            expectEq(5L, got.get(0).offset(), "reset to log start after out-of-range seek");
        }
        // beforeOffset(-1) = high watermark: everything
        lw = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(-1))).lowWatermarks().get(tp).get();
        expectEq(20L, lw.lowWatermark(), "low watermark for -1");
        // past the high watermark: OffsetOutOfRange
        try {
            admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(100))).lowWatermarks().get(tp).get();
            throw new CheckFailed("deleteRecords past the high watermark succeeded");
        } catch (ExecutionException e) {
            expect(e.getCause() instanceof org.apache.kafka.common.errors.OffsetOutOfRangeException, "past HW: %s", e.getCause());
        }
    }

    /** DescribeConfigs until `key` satisfies ok, for up to 10 s (Kafka's broker applies a
     *  config change a moment after the controller has committed it and answered). */
    Config configWhen(ConfigResource res, String key, java.util.function.Predicate<ConfigEntry> ok) throws Exception {
        long deadline = System.currentTimeMillis() + 10000;
        while (true) {
            Config cfg = admin.describeConfigs(List.of(res)).all().get().get(res);
            if (ok.test(cfg.get(key)) || System.currentTimeMillis() > deadline) return cfg;
            Thread.sleep(100);
        }
    }

    void incrementalAlterConfigs() throws Exception {
        String topic = createTopic("configs", 1);
        ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        admin.incrementalAlterConfigs(Map.of(res, List.of(
                new AlterConfigOp(new ConfigEntry("retention.ms", "123456"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("max.message.bytes", "200000"), AlterConfigOp.OpType.SET)))).all().get();
        Config cfg = configWhen(res, "retention.ms", e -> "123456".equals(e.value()));
        expectEq("123456", cfg.get("retention.ms").value(), "retention.ms after SET");
        expectEq(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, cfg.get("retention.ms").source(), "source after SET");
        expectEq("200000", cfg.get("max.message.bytes").value(), "max.message.bytes after SET");
        admin.incrementalAlterConfigs(Map.of(res, List.of(
                new AlterConfigOp(new ConfigEntry("retention.ms", ""), AlterConfigOp.OpType.DELETE)))).all().get();
        cfg = configWhen(res, "retention.ms", e -> "604800000".equals(e.value()));
        expectEq("604800000", cfg.get("retention.ms").value(), "retention.ms after DELETE");
        expect(cfg.get("retention.ms").source() != ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, "source after DELETE");
        // APPEND to a list config
        admin.incrementalAlterConfigs(Map.of(res, List.of(
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND)))).all().get();
        cfg = configWhen(res, "cleanup.policy", e -> "delete,compact".equals(e.value()));
        expectEq("delete,compact", cfg.get("cleanup.policy").value(), "cleanup.policy after APPEND");
        // an unknown config is rejected
        try {
            admin.incrementalAlterConfigs(Map.of(res, List.of(
                    new AlterConfigOp(new ConfigEntry("no.such.config", "1"), AlterConfigOp.OpType.SET)))).all().get();
            throw new CheckFailed("unknown config accepted");
        } catch (ExecutionException e) {
            expect(e.getCause() instanceof org.apache.kafka.common.errors.InvalidConfigurationException
                    || e.getCause() instanceof org.apache.kafka.common.errors.InvalidRequestException, "unknown config: %s", e.getCause());
        }
    }

    /** While producers append with acks=all and acks=1, latest offsets (Admin and consumer) never go backwards. */
    void latestOffsetsMonotonic() throws Exception {
        String topic = createTopic("monotonic", 2);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Exception> prodErr = new AtomicReference<>();
        List<Thread> producers = new ArrayList<>();
        for (String acks : List.of("all", "1")) {
            Thread t = new Thread(() -> {
                try (KafkaProducer<byte[], byte[]> p = producer(Map.of(ProducerConfig.ACKS_CONFIG, acks,
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, acks.equals("all"), ProducerConfig.LINGER_MS_CONFIG, 1))) {
                    for (int i = 0; i < 3000 && !stop.get(); i++) p.send(new ProducerRecord<>(topic, i % 2, null, b("m" + i)));
                    p.flush();
                } catch (Exception e) {
                    prodErr.set(e);
                }
            });
            t.start();
            producers.add(t);
        }
        List<TopicPartition> tps = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        Map<TopicPartition, Long> last = new HashMap<>();
        int samples = 0;
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of())) {
            while (producers.stream().anyMatch(Thread::isAlive) || samples < 20) {
                Map<TopicPartition, Long> a = listOffsets(topic, 2, OffsetSpec.latest());
                Map<TopicPartition, Long> e = c.endOffsets(tps);
                for (TopicPartition tp : tps) {
                    for (long v : new long[]{a.get(tp), e.get(tp)}) {
                        long prev = last.getOrDefault(tp, 0L);
                        expect(v >= prev, "latest offset of %s went backwards: %d after %d", tp, v, prev);
                        last.put(tp, Math.max(prev, v));
                    }
                }
                samples++;
            }
        } finally {
            stop.set(true);
            for (Thread t : producers) t.join();
        }
        expect(prodErr.get() == null, "producer failed: %s", prodErr.get());
        Map<TopicPartition, Long> fin = listOffsets(topic, 2, OffsetSpec.latest());
        expectEq(6000L, fin.values().stream().mapToLong(Long::longValue).sum(), "total records");
    }

    /** Many fetches of a 3-partition topic (small max.partition.fetch.bytes), records
     *  trickling in while the consumer long-polls, then idle polls: every record exactly
     *  once and in order. With fetch sessions these are incremental fetches (the pytest
     *  side counts them in the client's FetchSessionHandler debug log). */
    void incrementalFetch() throws Exception {
        String topic = createTopic("incr", 3);
        int bulk = 3000, trickle = 30;
        produceN(topic, 3, bulk, "i");
        List<TopicPartition> tps = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1),
                                           new TopicPartition(topic, 2));
        Map<Integer, List<String>> seen = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of(
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4096, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 200));
             KafkaProducer<byte[], byte[]> p = producer(Map.of())) {
            c.assign(tps);
            c.seekToBeginning(tps);
            int total = 0, sent = 0;
            long deadline = System.currentTimeMillis() + 60000;
            while (total < bulk + trickle && System.currentTimeMillis() < deadline) {
                if (total >= bulk && sent < trickle) {   // one record at a time, into a waiting fetch
                    p.send(new ProducerRecord<>(topic, sent % 3, b("k"), b("late-" + sent))).get();
                    sent++;
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(300))) {
                    seen.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(s(r.value()));
                    total++;
                }
            }
            for (int i = 0; i < 5; i++) total += c.poll(Duration.ofMillis(200)).count();   // idle: nothing more
            expectEq(bulk + trickle, total, "records consumed");
        }
        for (int part = 0; part < 3; part++) {
            List<String> expected = new ArrayList<>();
            for (int i = part; i < bulk; i += 3) expected.add("i-" + i);
            for (int i = part; i < trickle; i += 3) expected.add("late-" + i);
            expectEq(expected, seen.get(part), "records of partition " + part);
        }
    }

    // ---- driver --------------------------------------------------------------------------

    /** Transactions: commit and abort, read_committed vs read_uncommitted, offsets sent in the
     *  transaction become visible on commit only, a second producer with the same id fences the first. */
    void transactions() throws Exception {
        String topic = createTopic("txn", 2);
        String group = run + "-txn-group";
        String txnId = run + "-txn";
        Map<String, Object> cfg = Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txnId,
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 20000);
        TopicPartition in0 = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> p = producer(cfg)) {
            p.initTransactions();
            p.beginTransaction();
            for (int i = 0; i < 10; i++) p.send(new ProducerRecord<>(topic, i % 2, b("k" + i), b("committed-" + i)));
            p.sendOffsetsToTransaction(Map.of(in0, new OffsetAndMetadata(7L)),
                    new org.apache.kafka.clients.consumer.ConsumerGroupMetadata(group));
            p.commitTransaction();
            p.beginTransaction();
            for (int i = 0; i < 10; i++) p.send(new ProducerRecord<>(topic, i % 2, b("k" + i), b("aborted-" + i)));
            p.sendOffsetsToTransaction(Map.of(in0, new OffsetAndMetadata(99L)),
                    new org.apache.kafka.clients.consumer.ConsumerGroupMetadata(group));
            p.flush();
            p.abortTransaction();
        }
        List<TopicPartition> tps = List.of(in0, new TopicPartition(topic, 1));
        for (String iso : List.of("read_committed", "read_uncommitted")) {
            try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, iso))) {
                c.assign(tps);
                c.seekToBeginning(tps);
                int want = iso.equals("read_committed") ? 10 : 20;
                List<ConsumerRecord<byte[], byte[]>> got = pollN(c, want, 20000);
                got.addAll(pollN(c, 1, 1000));  // nothing more may arrive
                expectEq(want, got.size(), iso + " records");
                for (ConsumerRecord<byte[], byte[]> r : got)
                    expect(iso.equals("read_uncommitted") || s(r.value()).startsWith("committed-"),
                            "%s saw %s", iso, s(r.value()));
                for (TopicPartition tp : tps)  // 5 + 5 records and two markers per partition
                    expectEq(12L, c.position(tp), iso + " position of " + tp);
            }
        }
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS);
        expectEq(7L, committed.get(in0).offset(), "offset committed in the transaction");
        // zombie fencing: a new producer with the same transactional.id bumps the epoch
        KafkaProducer<byte[], byte[]> zombie = producer(cfg);
        zombie.initTransactions();
        zombie.beginTransaction();
        zombie.send(new ProducerRecord<>(topic, 0, null, b("zombie"))).get();
        try (KafkaProducer<byte[], byte[]> fresh = producer(cfg)) {
            fresh.initTransactions();
            try {
                zombie.commitTransaction();
                throw new CheckFailed("the fenced producer committed");
            } catch (org.apache.kafka.common.errors.ProducerFencedException
                     | org.apache.kafka.common.errors.InvalidProducerEpochException expected) {
                // fenced, as Kafka does
            } finally {
                zombie.close(Duration.ZERO);
            }
            fresh.beginTransaction();
            fresh.send(new ProducerRecord<>(topic, 0, null, b("fresh"))).get();
            fresh.commitTransaction();
        }
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            c.assign(List.of(in0));
            c.seek(in0, 12L);
            List<String> vals = pollN(c, 1, 20000).stream().map(r -> s(r.value())).collect(Collectors.toList());
            vals.addAll(pollN(c, 1, 1000).stream().map(r -> s(r.value())).collect(Collectors.toList()));
            expectEq(List.of("fresh"), vals, "records after the fenced transaction");
        }
    }

    /** Epochs across transactions (KIP-890 part 2): with transaction.version 2 finalized (what Kafka 4.3
     *  finalizes on a fresh cluster) a 4.x client uses transactions V2: no AddPartitionsToTxn
     *  or AddOffsetsToTxn (Produce v12+ and TxnOffsetCommit v5 add them), EndTxn v5 bumps the epoch at
     *  every commit and abort and the markers carry it. A 3.x client, or any client at transaction.version 1,
     *  keeps one epoch. Either way only committed records and offsets are visible. */
    void transactionEpochs() throws Exception {
        short tv = admin.describeFeatures().featureMetadata().get(20, TimeUnit.SECONDS)
                .finalizedFeatures().get("transaction.version").maxVersionLevel();
        boolean v2 = tv >= 2 && !AppInfoParser.getVersion().startsWith("3.");
        String topic = createTopic("txnep", 2);
        String group = run + "-txnep-group";
        String txnId = run + "-txnep";
        TopicPartition in0 = new TopicPartition(topic, 0), in1 = new TopicPartition(topic, 1);
        Map<String, Object> cfg = Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txnId,
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 20000);
        List<String> expectedValues = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> p = producer(cfg)) {
            p.initTransactions();
            org.apache.kafka.clients.admin.TransactionDescription d0 = describeTxn(txnId);
            int n = 0;
            boolean[] commits = {true, false, true, true, false, true};
            for (boolean commit : commits) {
                p.beginTransaction();
                String v = (commit ? "c" : "a") + n;
                p.send(new ProducerRecord<>(topic, n % 2, null, b(v))).get();
                p.sendOffsetsToTransaction(Map.of(in0, new OffsetAndMetadata(100L + n)),
                        new org.apache.kafka.clients.consumer.ConsumerGroupMetadata(group));
                if (commit) {
                    p.commitTransaction();
                    expectedValues.add(v);
                } else {
                    p.abortTransaction();
                }
                n++;
                // Kafka answers EndTxn once Prepare* is in its log and writes the markers after
                String want = commit ? "CompleteCommit" : "CompleteAbort";
                org.apache.kafka.clients.admin.TransactionDescription d = describeTxn(txnId);
                for (long end = System.currentTimeMillis() + 10000;
                     !d.state().toString().equals(want) && System.currentTimeMillis() < end; d = describeTxn(txnId))
                    Thread.sleep(20);
                expectEq(d0.producerId(), d.producerId(), "producer id after transaction " + n);
                expectEq(v2 ? d0.producerEpoch() + n : d0.producerEpoch(), d.producerEpoch(),
                        "producer epoch after transaction " + n + (v2 ? " (bumped by every EndTxn v5)" : ""));
                expectEq(want, d.state().toString(), "state after transaction " + n);
            }
            // the markers carry the epoch the broker ended each transaction with
            for (TopicPartition tp : List.of(in0, in1)) {
                List<org.apache.kafka.clients.admin.ProducerState> ps = admin.describeProducers(List.of(tp))
                        .partitionResult(tp).get(20, TimeUnit.SECONDS).activeProducers();
                expectEq(1, ps.size(), "active producers of " + tp);
                int lastTxnOfPartition = tp.partition() == 0 ? commits.length - 1 : commits.length;
                expectEq(v2 ? d0.producerEpoch() + lastTxnOfPartition : d0.producerEpoch(),
                        (int) ps.get(0).producerEpoch(), "epoch of the last marker in " + tp);
            }
        }
        try (KafkaConsumer<byte[], byte[]> c = consumer(null, Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            c.assign(List.of(in0, in1));
            c.seekToBeginning(List.of(in0, in1));
            List<String> vals = pollN(c, expectedValues.size(), 20000).stream().map(r -> s(r.value()))
                    .sorted().collect(Collectors.toList());
            vals.addAll(pollN(c, 1, 1000).stream().map(r -> s(r.value())).collect(Collectors.toList()));
            expectEq(expectedValues.stream().sorted().collect(Collectors.toList()), vals, "committed records");
        }
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS);
        expectEq(105L, committed.get(in0).offset(), "offset of the last committed transaction");
    }

    org.apache.kafka.clients.admin.TransactionDescription describeTxn(String txnId) throws Exception {
        return admin.describeTransactions(List.of(txnId)).description(txnId).get(20, TimeUnit.SECONDS);
    }

    void check(String name, Check c, Set<String> only) {
        if (!only.isEmpty() && !only.contains(name)) return;
        long t0 = System.nanoTime();
        try {
            c.run();
            passed++;
            System.out.printf("PASS %s (%.1fs)%n", name, (System.nanoTime() - t0) / 1e9);
        } catch (Throwable e) {
            failed++;
            Throwable cause = (e instanceof ExecutionException && e.getCause() != null) ? e.getCause() : e;
            System.out.printf("FAIL %s: %s%n", name, cause.toString().replace('\n', ' '));
            if (!(cause instanceof CheckFailed)) cause.printStackTrace(System.err);
        }
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: JavaClientsCheck BOOTSTRAP [CHECK ...]");
            System.exit(2);
        }
        Set<String> only = new HashSet<>(Arrays.asList(args).subList(1, args.length));
        JavaClientsCheck j = new JavaClientsCheck(args[0]);
        String version = AppInfoParser.getVersion();
        System.out.println("kafka-clients " + version + " against " + args[0]);
        j.check("admin.describeCluster", j::describeCluster, only);
        j.check("admin.createTopics", j::createTopics, only);
        j.check("admin.listTopics", j::listTopics, only);
        j.check("admin.describeTopics", j::describeTopics, only);
        j.check("producer.everyCodecWithHeaders", j::produceEveryCodec, only);
        j.check("producer.acks", j::produceAcks, only);
        j.check("consumer.groupCommitSyncAsync", j::consumerGroupCommits, only);
        j.check("consumer.seek", j::seek, only);
        j.check("consumer.offsetsForTimes", j::offsetsForTimes, only);
        j.check("admin.listOffsetsMaxTimestamp", j::listOffsetsMaxTimestamp, only);
        j.check("consumer.pauseResume", j::pauseResume, only);
        j.check("admin.consumerGroups", j::consumerGroupsAdmin, only);
        j.check("admin.deleteRecords", j::deleteRecords, only);
        j.check("admin.incrementalAlterConfigs", j::incrementalAlterConfigs, only);
        j.check("offsets.latestNeverBackwards", j::latestOffsetsMonotonic, only);
        j.check("consumer.incrementalFetch", j::incrementalFetch, only);
        j.check("producer.transactions", j::transactions, only);
        j.check("producer.transactionEpochs", j::transactionEpochs, only);
        j.admin.close(Duration.ofSeconds(5));
        System.out.printf("java-clients %s: %d passed, %d failed%n", version, j.passed, j.failed);
        System.exit(j.failed == 0 ? 0 : 1);
    }
}
