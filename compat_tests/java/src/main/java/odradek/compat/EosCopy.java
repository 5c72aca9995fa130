package odradek.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Consume-transform-produce exactly once with the Java clients, until killed: a read_committed consumer
 * of SRC in group GROUP and a transactional producer (TXN_ID) that copies each record to the same
 * partition of DST, its value prefixed with "out-", and commits the consumed offsets in the same transaction
 * (sendOffsetsToTransaction with the consumer's group metadata). A transaction that fails is aborted
 * and its input read again from the group's committed offsets; a producer that cannot abort (fenced,
 * fatal) is closed and replaced (initTransactions fences it and ends what it left open).
 *
 * Prints "COMMITTED n total" per committed transaction, "ERROR what" per failure, "REPLACED" per new
 * producer. Usage: EosCopy BOOTSTRAP SRC DST GROUP TXN_ID
 */
public final class EosCopy {

    final String bootstrap, src, dst, group, txnId;
    final KafkaConsumer<byte[], byte[]> consumer;
    KafkaProducer<byte[], byte[]> producer;
    long total = 0;
    boolean rewind = false;

    EosCopy(String[] a) {
        bootstrap = a[0];
        src = a[1];
        dst = a[2];
        group = a[3];
        txnId = a[4];
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
        consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(src));
        producer = newProducer();
    }

    KafkaProducer<byte[], byte[]> newProducer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txnId);
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        KafkaProducer<byte[], byte[]> pr = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        while (true) {
            try {
                pr.initTransactions();
                return pr;
            } catch (TimeoutException e) {  // the coordinator moving: initTransactions may be called again
                say("ERROR initTransactions " + e);
            }
        }
    }

    static void say(String line) {
        System.out.println(line.replace('\n', ' '));
        System.out.flush();
    }

    /** Back to the group's committed offsets (the earliest where none): the failed transaction's input again. */
    void rewind() {
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned, Duration.ofSeconds(60));
        for (TopicPartition tp : assigned) {
            OffsetAndMetadata om = committed.get(tp);
            if (om == null) consumer.seekToBeginning(List.of(tp));
            else consumer.seek(tp, om.offset());
        }
    }

    void commit() {
        long deadline = System.currentTimeMillis() + 120_000;
        while (true) {
            try {
                producer.commitTransaction();
                return;
            } catch (TimeoutException e) {  // the outcome unknown: commitTransaction may be called again
                if (System.currentTimeMillis() > deadline) throw e;
                say("ERROR commitTransaction " + e);
            }
        }
    }

    void copyOnce() {
        if (rewind) {
            try {
                rewind();
                rewind = false;
            } catch (KafkaException e) {  // the group coordinator moving: tried again
                say("ERROR rewind " + e);
                return;
            }
        }
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
        if (records.isEmpty()) return;
        try {
            producer.beginTransaction();
            Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                byte[] v = ("out-" + new String(r.value(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(dst, r.partition(), r.key(), v));
                next.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            }
            producer.sendOffsetsToTransaction(next, consumer.groupMetadata());
            commit();
            total += records.count();
            say("COMMITTED " + records.count() + " " + total);
        } catch (KafkaException e) {
            say("ERROR " + e);
            try {
                producer.abortTransaction();
            } catch (KafkaException fatal) {  // fenced or fatal: a new producer fences this one
                say("ERROR abortTransaction " + fatal);
                producer.close(Duration.ZERO);
                producer = newProducer();
                say("REPLACED");
            }
            rewind = true;
        }
    }

    public static void main(String[] args) {
        if (args.length != 5) {
            System.err.println("usage: EosCopy BOOTSTRAP SRC DST GROUP TXN_ID");
            System.exit(2);
        }
        EosCopy copy = new EosCopy(args);
        say("STARTED");
        while (true) copy.copyOnce();
    }
}
