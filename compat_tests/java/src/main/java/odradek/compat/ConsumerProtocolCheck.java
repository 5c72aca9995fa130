package odradek.compat;

import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.*;
import org.apache.kafka.common.serialization.*;

/** KIP-848 consumer groups (group.protocol=consumer) with the Java client: prints PASS/FAIL per check. */
public class ConsumerProtocolCheck {
    static String bootstrap;
    static int failures = 0;

    interface Check { void run() throws Exception; }

    static void check(String name, Check c) {
        try { c.run(); System.out.println("PASS " + name); }
        catch (Throwable t) { failures++; System.out.println("FAIL " + name + ": " + t); t.printStackTrace(System.err); }
    }

    static void require(boolean ok, String msg) { if (!ok) throw new AssertionError(msg); }

    static KafkaConsumer<String, String> consumer(String group) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", group);
        p.put("group.protocol", "consumer");
        p.put("auto.offset.reset", "earliest");
        p.put("enable.auto.commit", "false");
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    static void createAndWait(Admin admin, String topic, int partitions) throws Exception {
        long end = System.currentTimeMillis() + 30_000;
        while (true) {
            try { admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(); break; }
            catch (java.util.concurrent.ExecutionException e) {  // the deleted one may linger a moment
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)
                        || System.currentTimeMillis() > end) throw e;
                Thread.sleep(200);
            }
        }
        while (true) {
            try {
                if (admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size() == partitions) return;
            } catch (java.util.concurrent.ExecutionException e) { if (System.currentTimeMillis() > end) throw e; }
            Thread.sleep(100);
        }
    }

    static void committedAcrossTopicRecreation(Admin admin) throws Exception {
        String topic = "cpid-" + UUID.randomUUID().toString().substring(0, 8);
        String group = "cpidg-" + UUID.randomUUID().toString().substring(0, 8);
        TopicPartition tp0 = new TopicPartition(topic, 0), tp1 = new TopicPartition(topic, 1);
        createAndWait(admin, topic, 2);
        try (KafkaConsumer<String, String> c = consumer(group)) {
            c.assign(List.of(tp0, tp1));
            c.commitSync(Map.of(tp0, new OffsetAndMetadata(7, "m"), tp1, new OffsetAndMetadata(3)));
            Map<TopicPartition, OffsetAndMetadata> got = c.committed(Set.of(tp0, tp1), Duration.ofSeconds(10));
            require(got.get(tp0).offset() == 7 && "m".equals(got.get(tp0).metadata()) && got.get(tp1).offset() == 3,
                    "committed " + got);
        }
        admin.deleteTopics(List.of(topic)).all().get();
        long end = System.currentTimeMillis() + 30_000;
        while (admin.listTopics().names().get().contains(topic)) {
            require(System.currentTimeMillis() < end, "topic not deleted");
            Thread.sleep(100);
        }
        createAndWait(admin, topic, 2);
        try (KafkaConsumer<String, String> c = consumer(group)) {
            c.assign(List.of(tp0, tp1));
            Map<TopicPartition, OffsetAndMetadata> got = c.committed(Set.of(tp0, tp1), Duration.ofSeconds(10));
            require(got.get(tp0) == null && got.get(tp1) == null, "after re-creation " + got);
            c.commitSync(Map.of(tp0, new OffsetAndMetadata(2)));
            got = c.committed(Set.of(tp0, tp1), Duration.ofSeconds(10));
            require(got.get(tp0).offset() == 2 && got.get(tp1) == null, "new commit " + got);
        }
    }

    public static void main(String[] args) throws Exception {
        bootstrap = args[0];
        String topic = "cp-" + UUID.randomUUID().toString().substring(0, 8);
        String group = "cpg-" + UUID.randomUUID().toString().substring(0, 8);
        Properties ap = new Properties();
        ap.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(ap)) {
            admin.createTopics(List.of(new NewTopic(topic, 6, (short) 1))).all().get();
            Properties pp = new Properties();
            pp.put("bootstrap.servers", bootstrap);
            pp.put("key.serializer", StringSerializer.class.getName());
            pp.put("value.serializer", StringSerializer.class.getName());
            try (KafkaProducer<String, String> prod = new KafkaProducer<>(pp)) {
                for (int i = 0; i < 60; i++) prod.send(new ProducerRecord<>(topic, i % 6, "k" + i, "v" + i));
                prod.flush();
            }
            List<KafkaConsumer<String, String>> cs = new ArrayList<>();
            for (int i = 0; i < 3; i++) { KafkaConsumer<String, String> c = consumer(group); c.subscribe(List.of(topic)); cs.add(c); }
            Map<String, Integer> seen = new HashMap<>();
            check("consumer848.threeSplitPartitions", () -> {
                long end = System.currentTimeMillis() + 40_000;
                while (System.currentTimeMillis() < end) {
                    boolean balanced = true;
                    for (KafkaConsumer<String, String> c : cs) {
                        ConsumerRecords<String, String> recs = c.poll(Duration.ofMillis(100));
                        // only the first 30 records now: the rest is read across the rebalance below
                        for (ConsumerRecord<String, String> r : recs) seen.merge(r.value(), 1, Integer::sum);
                        if (!recs.isEmpty()) c.commitSync();
                        if (c.assignment().size() != 2) balanced = false;
                    }
                    if (balanced) return;
                }
                StringBuilder sb = new StringBuilder();
                for (KafkaConsumer<String, String> c : cs) sb.append(c.assignment().size()).append(' ');
                throw new AssertionError("not balanced: " + sb);
            });
            check("admin.describeConsumerGroups", () -> {
                ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                require(d.type() == GroupType.CONSUMER, "type " + d.type());
                require(d.groupState() == GroupState.STABLE, "state " + d.groupState());
                require(d.members().size() == 3, "members " + d.members().size());
                require("uniform".equals(d.partitionAssignor()), "assignor " + d.partitionAssignor());
                int total = 0;
                for (MemberDescription m : d.members()) {
                    total += m.assignment().topicPartitions().size();
                    require(m.memberEpoch().isPresent() && m.memberEpoch().get() > 0, "member epoch " + m.memberEpoch());
                    require(m.targetAssignment().isPresent(), "target assignment");
                }
                require(total == 6, "assigned " + total);
                require(d.groupEpoch().isPresent() && d.targetAssignmentEpoch().isPresent(), "epochs");
                Collection<GroupListing> groups = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get();
                require(groups.stream().anyMatch(g -> g.groupId().equals(group) && g.type().orElse(null) == GroupType.CONSUMER),
                        "listGroups " + groups);
            });
            check("consumer848.leaveAndExactlyOnce", () -> {
                cs.remove(2).close();  // leaves the group: its partitions move to the others
                long end = System.currentTimeMillis() + 40_000;
                while (System.currentTimeMillis() < end) {
                    for (KafkaConsumer<String, String> c : cs) {
                        ConsumerRecords<String, String> recs = c.poll(Duration.ofMillis(100));
                        for (ConsumerRecord<String, String> r : recs) seen.merge(r.value(), 1, Integer::sum);
                        if (!recs.isEmpty()) c.commitSync();
                    }
                    if (cs.get(0).assignment().size() + cs.get(1).assignment().size() == 6 && seen.size() == 60) break;
                }
                require(cs.get(0).assignment().size() == 3 && cs.get(1).assignment().size() == 3,
                        "assignment " + cs.get(0).assignment() + " " + cs.get(1).assignment());
                require(seen.size() == 60, "seen " + seen.size());
                for (Map.Entry<String, Integer> e : seen.entrySet()) require(e.getValue() == 1, "twice: " + e.getKey());
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata().get();
                long sum = 0;
                for (OffsetAndMetadata om : committed.values()) sum += om.offset();
                require(sum == 60, "committed " + committed);
            });
            for (KafkaConsumer<String, String> c : cs) c.close();
            // OffsetCommit/OffsetFetch v10 (topics by id): offsets of a deleted topic are not those of
            // the topic re-created under its name
            check("consumer848.committedAcrossTopicRecreation", () -> committedAcrossTopicRecreation(admin));
            check("admin.deleteConsumerGroup", () -> {
                admin.deleteConsumerGroups(List.of(group)).all().get();
            });
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
