package odradek.compat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One Java member of a consumer group, driven a step at a time by a Python test over stdin/stdout
 * (compat_tests/test_cluster_group_coordinator_failover.py): each "step" line is one poll, then a
 * synchronous commit of what was consumed since the last one when COMMIT_EVERY records are in or the
 * poll came back empty; a rebalance (partitions revoked, assigned or lost) forgets what was not
 * committed yet. What happened is written as lines stamped with System.nanoTime() (CLOCK_MONOTONIC,
 * the clock of Python's time.monotonic_ns), so that the test can order them with its other members':
 * "R t partition offset" per record, "C t p:o,p:o" per acknowledged commit, "E t message" per failed
 * commit, "D n" when the step is done (n: records consumed and not committed yet), and the rebalance
 * listener's calls as "A t p,p" (assigned), "V t p,p" (revoked) and "L t p,p" (lost). A "hold" line is a
 * step with every assigned partition paused (the member polls on, takes part in rebalances and
 * commits what it has, but consumes nothing); "keep" is the same without the commit of what it has.
 * "close" closes the consumer (leaves the group) and ends with "X".
 *
 * With the setting odradek.forget=revoked (not passed to the consumer), a rebalance forgets only what
 * was not committed of the partitions revoked or lost: a member that keeps a partition through a
 * cooperative rebalance commits what it read of it before (otherwise its next commit of that partition
 * would wait for records it has not read yet).
 *
 * Arguments: bootstrap topic group commitEvery [key=value consumer settings...]
 */
public final class GroupMember {
    public static void main(String[] args) throws Exception {
        String topic = args[1];
        int commitEvery = Integer.parseInt(args[3]);
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", args[2]);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            props.put(kv[0], kv[1]);
        }
        boolean forgetRevokedOnly = "revoked".equals(props.remove("odradek.forget"));
        Map<TopicPartition, OffsetAndMetadata> position = new HashMap<>();
        Map<TopicPartition, Integer> uncommitted = new HashMap<>();  // records read since the last commit
        int[] sinceCommit = {0};
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> parts) {
                    listened("V", parts);
                    forget(forgetRevokedOnly ? parts : null, position, uncommitted, sinceCommit);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> parts) {
                    listened("A", parts);
                    if (!forgetRevokedOnly) {
                        position.clear();
                        uncommitted.clear();
                        sinceCommit[0] = 0;
                    }
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> parts) {
                    listened("L", parts);
                    forget(forgetRevokedOnly ? parts : null, position, uncommitted, sinceCommit);
                }
            });
            String line;
            while ((line = in.readLine()) != null && !line.equals("close")) {
                if (!line.equals("step")) {
                    consumer.pause(consumer.assignment());
                } else {
                    consumer.resume(consumer.paused());
                }
                StringBuilder out = new StringBuilder();
                int got = 0;
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    out.append("R ").append(System.nanoTime()).append(' ').append(r.partition()).append(' ')
                       .append(r.offset()).append('\n');
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    position.put(tp, new OffsetAndMetadata(r.offset() + 1));
                    uncommitted.merge(tp, 1, Integer::sum);
                    sinceCommit[0]++;
                    got++;
                }
                if (!position.isEmpty() && (sinceCommit[0] >= commitEvery
                                           || (got == 0 && sinceCommit[0] > 0 && !line.equals("keep")))) {
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(position);
                    try {
                        consumer.commitSync(offsets);
                        Map<Integer, Long> byPartition = new TreeMap<>();
                        offsets.forEach((tp, o) -> byPartition.put(tp.partition(), o.offset()));
                        StringJoiner acked = new StringJoiner(",");
                        byPartition.forEach((p, o) -> acked.add(p + ":" + o));
                        out.append("C ").append(System.nanoTime()).append(' ').append(acked).append('\n');
                        sinceCommit[0] = 0;
                        uncommitted.clear();
                    } catch (RuntimeException e) {  // retried with the next commit, as the Python members
                        out.append("E ").append(System.nanoTime()).append(' ').append(e.getClass().getSimpleName())
                           .append(": ").append(String.valueOf(e.getMessage()).replace('\n', ' ')).append('\n');
                    }
                }
                out.append("D ").append(position.isEmpty() ? 0 : sinceCommit[0]).append('\n');
                System.out.print(out);
                System.out.flush();
            }
        }
        System.out.println("X");
        System.out.flush();
    }

    /** What was not committed is forgotten: of ``parts`` (null: of every partition). */
    private static void forget(Collection<TopicPartition> parts, Map<TopicPartition, OffsetAndMetadata> position,
                               Map<TopicPartition, Integer> uncommitted, int[] sinceCommit) {
        if (parts == null) {
            position.clear();
            uncommitted.clear();
        } else {
            for (TopicPartition tp : parts) {
                position.remove(tp);
                uncommitted.remove(tp);
            }
        }
        sinceCommit[0] = uncommitted.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static void listened(String kind, Collection<TopicPartition> parts) {
        StringJoiner ps = new StringJoiner(",");
        parts.stream().map(TopicPartition::partition).sorted().forEach(p -> ps.add(String.valueOf(p)));
        System.out.println(kind + " " + System.nanoTime() + " " + ps);
        System.out.flush();
    }
}
