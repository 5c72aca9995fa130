package odradek.compat.streams;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * A Kafka Streams application against a Kafka-compatible broker, with exact outcomes.
 *
 * One topology, four sub-topologies, 2 partitions each (8 tasks):
 *   lines -flatMapValues(split)-> groupBy(word) [repartition] -> count "word-counts" [changelog] -> word-counts topic
 *   clicks (keyed by user) join table(regions) "regions" [changelog] -> groupBy(region) [repartition]
 *       -> count "region-clicks" [changelog] -> region-counts topic
 *   clicks groupByKey -> 10 s tumbling windows, count "clicks-per-window" [windowed changelog] -> window-counts topic
 *
 * Input comes from a plain producer in four batches; after each the output topics, read with
 * read_committed, must hold the exact final counts per key. Between batches the application
 * changes shape: instance A alone; B joins (the sticky assignor moves tasks, B restores them from
 * the changelogs); A leaves (B takes all 8 tasks); B leaves and C starts on an empty state dir
 * (every store restored from its changelog, checked through interactive queries).
 *
 * Usage: StreamsCheck BOOTSTRAP eos|alos [classic|streams]
 *        StreamsCheck BOOTSTRAP cluster   (exactly_once_v2 on 3 brokers through a broker kill: runCluster)
 *   processing.guarantee exactly_once_v2 or at_least_once; group.protocol classic (default: JoinGroup/SyncGroup,
 *   the client assigns tasks) or streams (KIP-1071: StreamsGroupHeartbeat, the broker assigns tasks)
 * Prints "PASS name" or "FAIL name: reason" per check; exits 1 if any check failed.
 */
public final class StreamsCheck {

    static final class CheckFailed extends RuntimeException {
        CheckFailed(String msg) { super(msg); }
    }

    interface Check { void run() throws Exception; }

    static final int PARTITIONS = 2;
    static final long WINDOW_MS = 10_000;
    static final long GRACE_MS = 86_400_000L;
    static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                                   "india", "juliett", "kilo", "lima"};
    static final int USERS = 8;
    static final int WAIT_S = 45;
    static final int CLUSTER_WAIT_S = 180;  // the outputs of a batch in the cluster run

    final String bootstrap;
    final String mode;
    final String guarantee;
    final String prefix;
    short replicationFactor = 1;  // of every topic, Streams' internal ones too (3 in the cluster run)
    final String groupProtocol;
    final String appId;
    final String lines, clicks, regions, wordCounts, regionCounts, windowCounts;
    final Path stateRoot;
    final long baseTs;
    final Admin admin;

    // expected state, built as batches are produced
    final Map<String, Long> expWords = new TreeMap<>();
    final Map<String, Long> expRegions = new TreeMap<>();
    final Map<String, Long> expWindows = new TreeMap<>();
    final Map<String, String> userRegion = new TreeMap<>();

    int failed = 0, passed = 0, batches = 0;
    boolean broken = false;

    StreamsCheck(String bootstrap, String mode, String groupProtocol, String prefix) throws IOException {
        this.bootstrap = bootstrap;
        this.groupProtocol = groupProtocol;
        this.mode = mode;
        this.guarantee = mode.equals("eos") ? StreamsConfig.EXACTLY_ONCE_V2 : StreamsConfig.AT_LEAST_ONCE;
        String p = prefix != null ? prefix : "streams-" + mode + "-" + groupProtocol + "-" + UUID.randomUUID().toString().substring(0, 8);
        this.prefix = p;
        appId = p + "-app";
        lines = p + "-lines";
        clicks = p + "-clicks";
        regions = p + "-regions";
        wordCounts = p + "-word-counts";
        regionCounts = p + "-region-counts";
        windowCounts = p + "-window-counts";
        String root = System.getProperty("streams.check.stateRoot");  // a member process: its parent's
        stateRoot = root != null ? Path.of(root) : Files.createTempDirectory("streams-check-");
        // event times near now: the topics' default retention (7 days) and the window store's
        // must not drop them; aligned to a window so the expected windows are easy to name
        long now = System.currentTimeMillis();
        baseTs = now - now % WINDOW_MS - 3_600_000L;
        Properties ap = new Properties();
        ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        admin = Admin.create(ap);
    }

    static void expect(boolean cond, String fmt, Object... args) {
        if (!cond) throw new CheckFailed(String.format(fmt, args));
    }

    static void expectEq(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual))
            throw new CheckFailed(what + ": expected " + expected + " but got " + actual);
    }

    void check(String name, Check c) {
        long t0 = System.nanoTime();
        if (broken) {
            failed++;
            System.out.printf("FAIL %s: not run, an earlier phase failed%n", name);
            return;
        }
        try {
            c.run();
            passed++;
            System.out.printf("PASS %s (%.1fs)%n", name, (System.nanoTime() - t0) / 1e9);
        } catch (Throwable e) {
            failed++;
            broken = true;
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof CheckFailed)) cause = cause.getCause();
            System.out.printf("FAIL %s: %s%n", name, cause.toString().replace('\n', ' '));
            e.printStackTrace();
        }
        System.out.flush();
    }

    // ---------------------------------------------------------------- the application

    /** A member process started with a halt threshold dies (no shutdown, no commit, no LeaveGroup:
     *  as kill -9) in the middle of processing, after that many records. */
    static volatile long haltAfter = Long.MAX_VALUE;
    static final AtomicLong processedCount = new AtomicLong();

    static void processed(Object k, Object v) {
        if (processedCount.incrementAndGet() >= haltAfter) {
            System.out.println("HALT after " + processedCount.get() + " records");
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
    }

    StreamsBuilder topology() {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> text = b.stream(lines, Consumed.with(Serdes.String(), Serdes.String())).peek(StreamsCheck::processed);
        text.flatMapValues(v -> Arrays.asList(v.split(" ")))
            .groupBy((k, w) -> w, Grouped.with("words", Serdes.String(), Serdes.String()))
            .count(Materialized.as("word-counts"))
            .toStream()
            .peek(StreamsCheck::processed)
            .to(wordCounts, Produced.with(Serdes.String(), Serdes.Long()));

        KStream<String, String> cl = b.stream(clicks, Consumed.with(Serdes.String(), Serdes.String())).peek(StreamsCheck::processed);
        KTable<String, String> reg = b.table(regions, Consumed.with(Serdes.String(), Serdes.String()),
                                             Materialized.as("regions"));
        cl.join(reg, (page, region) -> region)
          .groupBy((user, region) -> region, Grouped.with("by-region", Serdes.String(), Serdes.String()))
          .count(Materialized.as("region-clicks"))
          .toStream()
          .peek(StreamsCheck::processed)
          .to(regionCounts, Produced.with(Serdes.String(), Serdes.Long()));

        cl.groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
          .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(WINDOW_MS), Duration.ofMillis(GRACE_MS)))
          .count(Materialized.as("clicks-per-window"))
          .toStream()
          .map((Windowed<String> wk, Long n) -> KeyValue.pair(wk.key() + "@" + wk.window().start(), n))
          .to(windowCounts, Produced.with(Serdes.String(), Serdes.Long()));
        return b;
    }

    final class Instance {
        final String name;
        final KafkaStreams streams;
        final AtomicLong restored = new AtomicLong();
        final AtomicReference<Throwable> error = new AtomicReference<>();

        Instance(String name) throws IOException {
            this.name = name;
            Properties p = new Properties();
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
            p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
            p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createDirectories(stateRoot.resolve(name)).toString());
            p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
            p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
            p.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, 100);
            // classic: the sticky assignor hands stateful tasks to a joining instance at once (the default
            // high-availability assignor warms it up first and moves them at a probing rebalance, >= 60 s);
            // the streams protocol's broker-side assignor moves them at once
            if (groupProtocol.equals("classic"))
                p.put(StreamsConfig.TASK_ASSIGNOR_CLASS_CONFIG,
                      "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor");
            p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
            p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 300);
            p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
            p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, groupProtocol);
            if (replicationFactor > 1) p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) replicationFactor);
            streams = new KafkaStreams(topology().build(), p);
            streams.setGlobalStateRestoreListener(new StateRestoreListener() {
                public void onRestoreStart(TopicPartition tp, String store, long start, long end) { }
                public void onBatchRestored(TopicPartition tp, String store, long batchEnd, long n) { restored.addAndGet(n); }
                public void onRestoreEnd(TopicPartition tp, String store, long total) { }
            });
            streams.setUncaughtExceptionHandler(e -> {
                error.compareAndSet(null, e);
                return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
        }

        void start() { streams.start(); }

        Set<String> activeTasks() {
            Set<String> out = new TreeSet<>();
            for (ThreadMetadata t : streams.metadataForLocalThreads())
                for (TaskMetadata tm : t.activeTasks()) out.add(tm.taskId().toString());
            return out;
        }

        void close() {
            // leave the group so the others rebalance at once (not after the session timeout)
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                                      .withTimeout(Duration.ofSeconds(30)));
        }

        void checkHealthy() {
            if (error.get() != null) throw new CheckFailed(name + " stream thread died: " + error.get());
            KafkaStreams.State s = streams.state();
            expect(s != KafkaStreams.State.ERROR && s != KafkaStreams.State.PENDING_ERROR
                   && s != KafkaStreams.State.NOT_RUNNING, "%s is %s", name, s);
        }
    }

    final List<Instance> running = new ArrayList<>();

    Instance startInstance(String name) throws IOException {
        Instance i = new Instance(name);
        running.add(i);
        i.start();
        return i;
    }

    void stop(Instance i) {
        running.remove(i);
        i.close();
    }

    /** Wait until every running instance is RUNNING and their active tasks are the 8 tasks, each once. */
    Map<String, Set<String>> waitForAssignment(Map<String, Integer> expectedCounts) throws Exception {
        return waitForAssignment(expectedCounts, 0);
    }

    /** ... with `remote` tasks active in a member process (not seen from here). */
    Map<String, Set<String>> waitForAssignment(Map<String, Integer> expectedCounts, int remote) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_S * 1000L;
        Map<String, Set<String>> last = new TreeMap<>();
        while (true) {
            last.clear();
            boolean allRunning = true;
            List<String> union = new ArrayList<>();
            for (Instance i : running) {
                i.checkHealthy();
                allRunning &= i.streams.state() == KafkaStreams.State.RUNNING;
                Set<String> t = i.activeTasks();
                last.put(i.name, t);
                union.addAll(t);
            }
            boolean countsOk = true;
            for (Map.Entry<String, Integer> e : expectedCounts.entrySet())
                countsOk &= last.get(e.getKey()).size() == e.getValue();
            if (allRunning && countsOk && union.size() == 4 * PARTITIONS - remote
                && new HashSet<>(union).size() == 4 * PARTITIONS - remote)
                return new TreeMap<>(last);
            if (System.currentTimeMillis() > deadline)
                throw new CheckFailed("assignment not settled: " + last + " states "
                                      + running.stream().map(i -> i.name + "=" + i.streams.state()).toList());
            Thread.sleep(100);
        }
    }

    // ---------------------------------------------------------------- input and expected output

    void createTopics() throws Exception {
        List<NewTopic> ts = new ArrayList<>();
        // output topics too: Streams never creates them (a broker auto-creates them with its default partitions)
        for (String t : List.of(lines, clicks, regions, wordCounts, regionCounts, windowCounts))
            ts.add(new NewTopic(t, PARTITIONS, replicationFactor));
        admin.createTopics(ts).all().get();
    }

    KafkaProducer<String, String> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p);
    }

    void produceRegions() throws Exception {
        try (KafkaProducer<String, String> pr = producer()) {
            for (int u = 0; u < USERS; u++) {
                String user = "user" + u, region = "region" + (u % 3);
                userRegion.put(user, region);
                // older than every click: a task holding both partitions processes the table first
                pr.send(new ProducerRecord<>(regions, null, baseTs - 60_000 + u, user, region)).get();
            }
        }
    }

    /** Batch b: 150 lines of 1-6 words and 120 clicks whose times span this batch's minute. */
    void produceBatch(int b) throws Exception {
        batches++;
        Random rnd = new Random(1000 + b);
        try (KafkaProducer<String, String> pr = producer()) {
            for (int i = 0; i < 150; i++) {
                int n = 1 + rnd.nextInt(6);
                List<String> ws = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    String w = WORDS[rnd.nextInt(WORDS.length)];
                    ws.add(w);
                    expWords.merge(w, 1L, Long::sum);
                }
                pr.send(new ProducerRecord<>(lines, "line-" + b + "-" + i, String.join(" ", ws)));
            }
            for (int i = 0; i < 120; i++) {
                String user = "user" + rnd.nextInt(USERS);
                long ts = baseTs + b * 60_000L + i * 400L;
                expRegions.merge(userRegion.get(user), 1L, Long::sum);
                expWindows.merge(user + "@" + (ts - ts % WINDOW_MS), 1L, Long::sum);
                pr.send(new ProducerRecord<>(clicks, null, ts, user, "page" + rnd.nextInt(20)));
            }
            pr.flush();
        }
    }

    /** Every record of some topics, read_committed, from the start to the last stable offset, with
     *  one consumer: {topic: its records (each partition's in order)}. */
    Map<String, List<ConsumerRecord<String, Long>>> readAll(List<String> topics) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        try (KafkaConsumer<String, Long> c = new KafkaConsumer<>(p, new StringDeserializer(), new LongDeserializer())) {
            List<TopicPartition> tps = partitions(topics.toArray(new String[0]));
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            Map<String, List<ConsumerRecord<String, Long>>> out = new HashMap<>();
            for (String t : topics) out.put(t, new ArrayList<>());
            long deadline = System.currentTimeMillis() + 10_000;
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.currentTimeMillis() > deadline) throw new CheckFailed("reading " + topics + " timed out");
                for (ConsumerRecord<String, Long> r : c.poll(Duration.ofMillis(100))) out.get(r.topic()).add(r);
            }
            return out;
        }
    }

    static Map<String, Long> lastPerKey(List<ConsumerRecord<String, Long>> rs) {
        Map<String, Long> m = new TreeMap<>();
        for (ConsumerRecord<String, Long> r : rs) m.put(r.key(), r.value());
        return m;
    }

    /** Wait until the three output topics hold exactly the expected final count per key. */
    void waitForOutputs() throws Exception {
        waitForOutputs(WAIT_S);
    }

    void waitForOutputs(int waitS) throws Exception {
        long deadline = System.currentTimeMillis() + waitS * 1000L;
        Map<String, Map<String, Long>> expected = Map.of(wordCounts, expWords, regionCounts, expRegions,
                                                         windowCounts, expWindows);
        while (true) {
            for (Instance i : running) i.checkHealthy();
            Map<String, String> diffs = new TreeMap<>();
            Map<String, List<ConsumerRecord<String, Long>>> all;
            try {
                all = readAll(new ArrayList<>(expected.keySet()));
            } catch (CheckFailed | org.apache.kafka.common.KafkaException e) {  // a leader moving: read again
                if (System.currentTimeMillis() > deadline) throw e;
                Thread.sleep(250);
                continue;
            }
            for (Map.Entry<String, Map<String, Long>> e : expected.entrySet()) {
                Map<String, Long> got = lastPerKey(all.get(e.getKey()));
                if (!got.equals(e.getValue())) diffs.put(e.getKey(), "expected " + e.getValue() + " got " + got);
            }
            if (diffs.isEmpty()) return;
            if (System.currentTimeMillis() > deadline) throw new CheckFailed("outputs not exact: " + diffs);
            Thread.sleep(250);
        }
    }

    // ---------------------------------------------------------------- checks

    Instance a, b, c;

    void run() throws Exception {
        check("streams.firstInstance", () -> {
            createTopics();
            produceRegions();
            produceBatch(1);
            a = startInstance("A");
            Map<String, Set<String>> tasks = waitForAssignment(Map.of("A", 4 * PARTITIONS));
            waitForOutputs();
            System.out.println("  tasks " + tasks);
        });
        check("streams.internalTopics", this::checkInternalTopics);
        check("streams.secondInstanceJoins", () -> {
            b = startInstance("B");
            Map<String, Set<String>> tasks = waitForAssignment(Map.of("A", 2 * PARTITIONS, "B", 2 * PARTITIONS));
            System.out.println("  tasks " + tasks);
            expect(b.restored.get() > 0, "B restored no record from the changelogs (tasks %s)", tasks);
            produceBatch(2);
            waitForOutputs();
            System.out.println("  B restored " + b.restored.get());
        });
        check("streams.firstInstanceLeaves", () -> {
            long before = b.restored.get();
            stop(a);
            waitForAssignment(Map.of("B", 4 * PARTITIONS));
            expect(b.restored.get() > before, "B restored nothing for A's tasks");
            produceBatch(3);
            waitForOutputs();
        });
        check("streams.freshInstanceRestoresState", () -> {
            stop(b);
            c = startInstance("C");
            waitForAssignment(Map.of("C", 4 * PARTITIONS));
            expect(c.restored.get() > 0, "C restored nothing");
            checkStores(c);
            produceBatch(4);
            waitForOutputs();
            System.out.println("  C restored " + c.restored.get());
        });
        if (mode.equals("eos")) check("streams.crashedInstanceReplaced", this::checkCrash);
        check("streams.repartitionTopicsPurged", this::checkPurged);
        check("streams.committedOffsets", () -> {
            stop(c);
            checkCommittedOffsets();
        });
        check("streams.outputTransactions", this::checkOutputTransactions);
        check("streams.noDuplicateOutput", this::checkMonotonic);
        check("streams.resetTool", this::checkReset);
        check("streams.reprocessAfterReset", () -> {
            Instance e = startInstance("E");
            waitForAssignment(Map.of("E", 4 * PARTITIONS));
            checkStores(e);
            waitForOutputs();
        });
    }

    /** The cluster run (3 brokers): exactly_once_v2 with every topic at replication factor 3, through a
     *  kill -9 of the broker coordinating the instance's transactional id, done by the caller when asked
     *  ("KILL <transactional id>" on stdout, a line on stdin once done), then its restart ("RESTART"). */
    void runCluster() throws Exception {
        check("streams.cluster.firstBatch", () -> {
            createTopics();
            produceRegions();
            produceBatch(1);
            a = startInstance("A");
            waitForAssignment(Map.of("A", 4 * PARTITIONS));
            // each transaction adds its partitions one by one, every coordinator write replicated: slower than on one node
            waitForOutputs(CLUSTER_WAIT_S);
            checkReplicationFactor();
        });
        check("streams.cluster.brokerKilled", () -> {
            produceBatch(2);  // processed while the broker dies
            ask("KILL " + txnId(a));
            waitForOutputs(CLUSTER_WAIT_S);
            waitForAssignment(Map.of("A", 4 * PARTITIONS));
        });
        check("streams.cluster.brokerRestarted", () -> {
            ask("RESTART");
            produceBatch(3);
            waitForOutputs(CLUSTER_WAIT_S);
        });
        check("streams.noDuplicateOutput", this::checkMonotonic);
        check("streams.outputTransactions", this::checkOutputTransactions);
        check("streams.committedOffsets", () -> {
            stop(a);
            checkCommittedOffsets();
        });
    }

    /** Say what the caller must do, wait for its line on stdin. */
    static void ask(String what) throws IOException {
        System.out.println(what);
        System.out.flush();
        String done = new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
        expect(done != null, "no answer to %s", what);
    }

    /** exactly_once_v2: one transactional producer per thread, id <application.id>-<process id>-<thread>. */
    static String txnId(Instance i) {
        return i.streams.metadataForLocalThreads().iterator().next().threadName().replace("-StreamThread-", "-");
    }

    /** Every topic of the application, the internal ones Streams created too, on replicationFactor brokers. */
    void checkReplicationFactor() throws Exception {
        Set<String> names = admin.listTopics().names().get().stream().filter(n -> n.startsWith(prefix + "-"))
                                 .collect(Collectors.toCollection(TreeSet::new));
        expectEq(12, names.size(), "topics of the application " + names);
        Map<String, Integer> got = new TreeMap<>();
        for (TopicDescription td : admin.describeTopics(names).allTopicNames().get().values())
            for (var p : td.partitions()) got.merge(td.name() + " replicas " + p.replicas().size(), 1, Integer::sum);
        Map<String, Integer> want = new TreeMap<>();
        for (String n : names) want.put(n + " replicas " + replicationFactor, PARTITIONS);
        expectEq(want, got, "replicas of each partition");
    }

    /** exactly_once_v2 across a crash: member D (another JVM) takes half of C's tasks, then dies in
     *  the middle of batch 5, its transaction open. C gets D's tasks after the session timeout,
     *  restores their state from the changelogs read_committed (the broker aborts D's transaction
     *  when it times out) and goes on from D's last committed offsets: the outputs are still exact. */
    void checkCrash() throws Exception {
        Path log = stateRoot.resolve("D.out");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dstreams.check.stateRoot=" + stateRoot, "-cp", System.getProperty("java.class.path"),
            StreamsCheck.class.getName(), bootstrap, "member", mode, groupProtocol, prefix, "D", "20");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        member = pb.start();
        try {
            long deadline = System.currentTimeMillis() + WAIT_S * 1000L;
            while (!Files.readString(log).contains("RUNNING 4")) {
                expect(member.isAlive(), "member D exited: %s", Files.readString(log));
                expect(System.currentTimeMillis() < deadline, "member D not running: %s", Files.readString(log));
                Thread.sleep(100);
            }
            Map<String, Set<String>> tasks = waitForAssignment(Map.of("C", 2 * PARTITIONS), 2 * PARTITIONS);
            System.out.println("  tasks " + tasks + " D: " + Files.readString(log).lines()
                               .filter(l -> l.startsWith("RUNNING")).findFirst().orElse(""));
            produceBatch(5);
            expect(member.waitFor(WAIT_S, java.util.concurrent.TimeUnit.SECONDS), "member D did not halt");
            expectEq(3, member.exitValue(), "member D exit code (halted mid-batch)");
            String txnId = Files.readString(log).lines().filter(l -> l.startsWith("TXNID ")).findFirst().orElseThrow()
                                .substring(6);
            String atHalt = txnState(txnId);
            System.out.println("  D: " + Files.readString(log).lines().filter(l -> l.startsWith("HALT")).findFirst().orElse("")
                               + ", its transaction " + atHalt);
            // D's session (10 s) times out, then its transaction (10 s, aborted by the broker)
            waitForAssignment(Map.of("C", 4 * PARTITIONS));
            waitForOutputs(90);
            // the broker ended D's transaction (aborted on its timeout, if it had begun)
            String st = txnState(txnId);
            // (EMPTY at the halt: D's records had not left its producer, no partition was added, there
            // was no transaction to end; as on Kafka, it stays EMPTY)
            expect(st.equals("COMPLETE_ABORT") || st.equals("COMPLETE_COMMIT")
                   || (atHalt.equals("EMPTY") && st.equals("EMPTY")), "D's transaction is %s (%s at the halt)", st, atHalt);
            System.out.println("  D's transaction at the end: " + st);
        } finally {
            member.destroyForcibly().waitFor();
        }
    }

    Process member;

    String txnState(String txnId) throws Exception {
        return admin.describeTransactions(List.of(txnId)).all().get().get(txnId).state().name();
    }

    /** A member of the application in its own JVM: runs until killed, or halts itself (haltAfter). */
    void runMember(String name, long halt) throws Exception {
        Instance i = new Instance(name);
        haltAfter = halt;
        i.start();
        while (true) {
            if (i.streams.state() == KafkaStreams.State.RUNNING) {
                Set<String> t = i.activeTasks();
                if (t.size() == 2 * PARTITIONS) {
                    // exactly_once_v2: one transactional producer per thread, id <application.id>-<process id>-<thread>
                    System.out.println("TXNID " + txnId(i));
                    System.out.println("RUNNING " + t.size() + " " + t);
                    System.out.flush();
                    break;
                }
            }
            Thread.sleep(50);
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    /** kafka-streams-application-reset (StreamsResetter) on the stopped application: it deletes the
     *  internal topics and moves the group's input offsets to the earliest. */
    void checkReset() throws Exception {
        int rc = new org.apache.kafka.tools.StreamsResetter().execute(new String[] {
            "--bootstrap-server", bootstrap, "--application-id", appId,
            "--input-topics", String.join(",", lines, clicks, regions), "--to-earliest"});
        expectEq(0, rc, "StreamsResetter exit code");
        long deadline = System.currentTimeMillis() + WAIT_S * 1000L;
        while (true) {
            Set<String> left = admin.listTopics().names().get().stream().filter(n -> n.startsWith(appId + "-"))
                                    .collect(Collectors.toCollection(TreeSet::new));
            if (left.isEmpty()) break;
            expect(System.currentTimeMillis() < deadline, "internal topics not deleted: %s", left);
            Thread.sleep(100);
        }
        // the group's offsets of the deleted topics go with them (Kafka deletes them once the
        // deletion reaches its group coordinator)
        Map<TopicPartition, Long> expected = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        for (TopicPartition tp : partitions(lines, clicks, regions)) expected.put(tp, 0L);
        while (true) {
            Map<TopicPartition, Long> comm = committed();
            if (comm.equals(expected)) break;
            if (System.currentTimeMillis() > deadline) expectEq(expected, comm, "committed offsets after the reset");
            Thread.sleep(100);
        }
    }

    /** Internal topics Streams created, with the partitions and configs it asked for. */
    void checkInternalTopics() throws Exception {
        Set<String> names = admin.listTopics().names().get().stream().filter(n -> n.startsWith(appId + "-"))
                                 .collect(Collectors.toCollection(TreeSet::new));
        Set<String> expected = new TreeSet<>(List.of(
            appId + "-words-repartition", appId + "-word-counts-changelog",
            appId + "-by-region-repartition", appId + "-region-clicks-changelog",
            appId + "-regions-changelog", appId + "-clicks-per-window-changelog"));
        expectEq(expected, names, "internal topics");
        Map<String, TopicDescription> d = admin.describeTopics(names).allTopicNames().get();
        for (TopicDescription td : d.values())
            expectEq(PARTITIONS, td.partitions().size(), td.name() + " partitions");
        List<ConfigResource> res = names.stream().map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
        Map<ConfigResource, Config> cfgs = admin.describeConfigs(res).all().get();
        String[] keys = {"cleanup.policy", "retention.ms", "segment.bytes", "message.timestamp.type"};
        Map<String, Map<String, String>> got = new TreeMap<>();
        for (ConfigResource r : res) {
            Map<String, String> m = new TreeMap<>();
            for (String k : keys) {
                ConfigEntry e = cfgs.get(r).get(k);
                m.put(k, e.value() + (e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG ? " (topic)" : " (default)"));
            }
            got.put(r.name().substring(appId.length() + 1), m);
        }
        Map<String, String> repartition = Map.of("cleanup.policy", "delete (topic)", "retention.ms", "-1 (topic)",
                                                 "segment.bytes", "52428800 (topic)",
                                                 "message.timestamp.type", "CreateTime (topic)");
        Map<String, String> changelog = Map.of("cleanup.policy", "compact (topic)", "retention.ms", "604800000 (default)",
                                               "segment.bytes", "1073741824 (default)",
                                               "message.timestamp.type", "CreateTime (topic)");
        Map<String, String> windowed = Map.of("cleanup.policy", "compact,delete (topic)",
                                              "retention.ms", (WINDOW_MS + GRACE_MS + 86_400_000L) + " (topic)",
                                              "segment.bytes", "1073741824 (default)",
                                              "message.timestamp.type", "CreateTime (topic)");
        Map<String, Map<String, String>> exp = new TreeMap<>();
        exp.put("words-repartition", repartition);
        exp.put("by-region-repartition", repartition);
        exp.put("word-counts-changelog", changelog);
        exp.put("region-clicks-changelog", changelog);
        exp.put("regions-changelog", changelog);
        exp.put("clicks-per-window-changelog", windowed);
        for (String k : exp.keySet()) expectEq(new TreeMap<>(exp.get(k)), got.get(k), "configs of " + k);
    }

    /** Interactive queries on the fresh instance: every store restored to the exact state. */
    void checkStores(Instance i) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_S * 1000L;
        while (true) {
            try {
                Map<String, Long> words = new TreeMap<>();
                ReadOnlyKeyValueStore<String, Long> ws = i.streams.store(
                    StoreQueryParameters.fromNameAndType("word-counts", QueryableStoreTypes.keyValueStore()));
                try (KeyValueIterator<String, Long> it = ws.all()) { it.forEachRemaining(kv -> words.put(kv.key, kv.value)); }
                Map<String, Long> regs = new TreeMap<>();
                ReadOnlyKeyValueStore<String, Long> rs = i.streams.store(
                    StoreQueryParameters.fromNameAndType("region-clicks", QueryableStoreTypes.keyValueStore()));
                try (KeyValueIterator<String, Long> it = rs.all()) { it.forEachRemaining(kv -> regs.put(kv.key, kv.value)); }
                Map<String, String> table = new TreeMap<>();
                ReadOnlyKeyValueStore<String, Object> ts = i.streams.store(
                    StoreQueryParameters.fromNameAndType("regions", QueryableStoreTypes.keyValueStore()));
                try (KeyValueIterator<String, Object> it = ts.all()) {
                    it.forEachRemaining(kv -> table.put(kv.key, String.valueOf(
                        kv.value instanceof org.apache.kafka.streams.state.ValueAndTimestamp<?> vt ? vt.value() : kv.value)));
                }
                Map<String, Long> wins = new TreeMap<>();
                ReadOnlyWindowStore<String, Long> wst = i.streams.store(
                    StoreQueryParameters.fromNameAndType("clicks-per-window", QueryableStoreTypes.windowStore()));
                try (KeyValueIterator<Windowed<String>, Long> it = wst.all()) {
                    it.forEachRemaining(kv -> wins.put(kv.key.key() + "@" + kv.key.window().start(), kv.value));
                }
                if (words.equals(expWords) && regs.equals(expRegions) && table.equals(userRegion) && wins.equals(expWindows))
                    return;
                if (System.currentTimeMillis() > deadline)
                    throw new CheckFailed("restored stores differ: words " + words + " regions " + regs + " table " + table
                                          + " windows " + wins);
            } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
                if (System.currentTimeMillis() > deadline) throw e;
            }
            Thread.sleep(100);
        }
    }

    List<TopicPartition> partitions(String... topics) {
        List<TopicPartition> out = new ArrayList<>();
        for (String t : topics) for (int p = 0; p < PARTITIONS; p++) out.add(new TopicPartition(t, p));
        return out;
    }

    Map<TopicPartition, Long> offsets(Collection<TopicPartition> tps, OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> q = new HashMap<>();
        for (TopicPartition tp : tps) q.put(tp, spec);
        Map<TopicPartition, Long> out = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        admin.listOffsets(q).all().get().forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    Map<TopicPartition, Long> committed() throws Exception {
        Map<TopicPartition, Long> out = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : admin.listConsumerGroupOffsets(appId)
                 .partitionsToOffsetAndMetadata().get().entrySet())
            if (e.getValue() != null) out.put(e.getKey(), e.getValue().offset());
        return out;
    }

    /** Streams deletes the records of its repartition topics it has committed past (DeleteRecords). */
    void checkPurged() throws Exception {
        List<TopicPartition> tps = partitions(appId + "-words-repartition", appId + "-by-region-repartition");
        long deadline = System.currentTimeMillis() + WAIT_S * 1000L;
        while (true) {
            Map<TopicPartition, Long> start = offsets(tps, OffsetSpec.earliest());
            Map<TopicPartition, Long> comm = committed();
            boolean ok = true;
            for (TopicPartition tp : tps) {
                Long co = comm.get(tp);
                expect(co != null, "no committed offset for %s: %s", tp, comm);
                expect(start.get(tp) <= co, "%s purged past its committed offset: start %d committed %d", tp, start.get(tp), co);
                ok &= start.get(tp) > 0;
            }
            if (ok) return;
            if (System.currentTimeMillis() > deadline)
                throw new CheckFailed("repartition topics not purged: start " + start + " committed " + comm);
            Thread.sleep(200);
        }
    }

    /** After the last instance closed: the group's offsets on the input topics are their end offsets. */
    void checkCommittedOffsets() throws Exception {
        List<TopicPartition> inputs = partitions(lines, clicks, regions);
        Map<TopicPartition, Long> end = offsets(inputs, OffsetSpec.latest());
        Map<TopicPartition, Long> comm = committed();
        Map<TopicPartition, Long> gotInputs = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        for (TopicPartition tp : inputs) gotInputs.put(tp, comm.get(tp));
        expectEq(end, gotInputs, "committed offsets of the input topics");
        long total = end.values().stream().mapToLong(Long::longValue).sum();
        expectEq(batches * (150L + 120L) + USERS, total, "records in the input topics");
    }

    /** exactly_once_v2 writes its output in transactions (each ends with a marker, so the end offset
     *  passes the records); at_least_once writes none. */
    void checkOutputTransactions() throws Exception {
        Map<String, List<ConsumerRecord<String, Long>>> all = readAll(List.of(wordCounts, regionCounts, windowCounts));
        for (String t : all.keySet()) {
            List<ConsumerRecord<String, Long>> rs = all.get(t);
            long records = rs.size();
            long end = offsets(partitions(t), OffsetSpec.latest()).values().stream().mapToLong(Long::longValue).sum();
            if (mode.equals("eos")) expect(end > records, "%s: end offsets %d, records %d: no transaction markers", t, end, records);
            else expectEq(records, end, t + ": end offsets (no markers under at_least_once)");
        }
    }

    /** Counts only grow: no output record repeats or undoes a count (at_least_once too: every
     *  instance closed cleanly, committing before its tasks moved). */
    void checkMonotonic() throws Exception {
        Map<String, List<ConsumerRecord<String, Long>>> all = readAll(List.of(wordCounts, regionCounts, windowCounts));
        for (String t : all.keySet()) {
            Map<String, Long> last = new HashMap<>();
            for (ConsumerRecord<String, Long> r : all.get(t)) {
                Long prev = last.put(r.key(), r.value());
                expect(prev == null || r.value() > prev, "%s key %s: %d after %d", t, r.key(), r.value(), prev);
            }
        }
    }

    void shutdown() {
        if (member != null) member.destroyForcibly();
        for (Instance i : new ArrayList<>(running)) {
            try { stop(i); } catch (Throwable e) { e.printStackTrace(); }
        }
        admin.close();
        try (var walk = Files.walk(stateRoot)) {
            walk.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            e.printStackTrace();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 7 && args[1].equals("member")) {
            new StreamsCheck(args[0], args[2], args[3], args[4]).runMember(args[5], Long.parseLong(args[6]));
            return;
        }
        if (args.length == 2 && args[1].equals("cluster")) {
            StreamsCheck s = new StreamsCheck(args[0], "eos", "classic", null);
            s.replicationFactor = 3;
            try {
                s.runCluster();
            } finally {
                s.shutdown();
            }
            System.out.printf("kafka-streams cluster: %d passed, %d failed%n", s.passed, s.failed);
            System.exit(s.failed == 0 ? 0 : 1);
        }
        if (args.length < 2 || args.length > 3 || !(args[1].equals("eos") || args[1].equals("alos"))
            || (args.length == 3 && !(args[2].equals("classic") || args[2].equals("streams")))) {
            System.err.println("usage: StreamsCheck BOOTSTRAP eos|alos [classic|streams]");
            System.exit(2);
        }
        StreamsCheck s = new StreamsCheck(args[0], args[1], args.length == 3 ? args[2] : "classic", null);
        long t0 = System.nanoTime();
        try {
            s.run();
        } finally {
            s.shutdown();
        }
        System.out.printf("kafka-streams %s %s: %d passed, %d failed (%.1fs)%n", args[1], s.groupProtocol, s.passed, s.failed,
                          (System.nanoTime() - t0) / 1e9);
        System.exit(s.failed == 0 ? 0 : 1);
    }
}
