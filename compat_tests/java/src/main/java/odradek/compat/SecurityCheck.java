package odradek.compat;

import java.io.FileInputStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The security client matrix for Java kafka-clients (compat_tests/test_security_matrix.py): for each
 * NAME=FILE argument (FILE: client properties with bootstrap.servers, security.protocol, ssl.* and
 * sasl.*), with those settings only: Admin creates a topic and describes the cluster, a transactional
 * producer commits two records and aborts one, a plain producer sends one more, and a consumer in a
 * group (read_committed) reads the three committed ones and commits its offset, which Admin reads
 * back. Prints "PASS NAME" or "FAIL NAME: reason" per argument.
 */
public final class SecurityCheck {
    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            Properties base = new Properties();
            try (FileInputStream in = new FileInputStream(kv[1])) {
                base.load(in);
            }
            try {
                run(kv[0], base);
                System.out.println("PASS " + kv[0]);
            } catch (Throwable e) {
                System.out.println("FAIL " + kv[0] + ": " + e);
            }
            System.out.flush();
        }
    }

    private static Properties with(Properties base, String... kvs) {
        Properties p = new Properties();
        p.putAll(base);
        for (int i = 0; i < kvs.length; i += 2) {
            p.put(kvs[i], kvs[i + 1]);
        }
        return p;
    }

    private static void run(String name, Properties base) throws Exception {
        String topic = "java-sec-" + name + "-" + UUID.randomUUID().toString().substring(0, 6);
        String group = topic + "-g";
        try (Admin admin = Admin.create(base)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            if (admin.describeCluster().nodes().get().isEmpty()) {
                throw new AssertionError("no brokers described");
            }
            Properties prod = with(base, "key.serializer", StringSerializer.class.getName(),
                    "value.serializer", StringSerializer.class.getName());
            try (KafkaProducer<String, String> txn = new KafkaProducer<>(with(prod, "transactional.id", topic))) {
                txn.initTransactions();
                txn.beginTransaction();
                txn.send(new ProducerRecord<>(topic, "a"));
                txn.send(new ProducerRecord<>(topic, "b"));
                txn.commitTransaction();
                txn.beginTransaction();
                txn.send(new ProducerRecord<>(topic, "aborted"));
                txn.flush();
                txn.abortTransaction();
            }
            try (KafkaProducer<String, String> p = new KafkaProducer<>(prod)) {
                p.send(new ProducerRecord<>(topic, "c")).get();
            }
            Set<String> got = new HashSet<>();
            Properties cons = with(base, "group.id", group, "auto.offset.reset", "earliest",
                    "enable.auto.commit", "false", "isolation.level", "read_committed",
                    "key.deserializer", StringDeserializer.class.getName(),
                    "value.deserializer", StringDeserializer.class.getName());
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(cons)) {
                c.subscribe(List.of(topic));
                long deadline = System.currentTimeMillis() + 60_000;
                while (got.size() < 3 && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                        got.add(r.value());
                    }
                }
                c.commitSync();
            }
            if (!got.equals(Set.of("a", "b", "c"))) {
                throw new AssertionError("read " + got);
            }
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            OffsetAndMetadata o = committed.get(new TopicPartition(topic, 0));
            // a, b, commit marker, aborted, abort marker, c: the consumer ends after c, at 6
            if (o == null || o.offset() != 6) {
                throw new AssertionError("committed " + committed);
            }
        }
    }
}
