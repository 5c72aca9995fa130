package odradek.compat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;

/**
 * The partition kafka-clients' producer chooses for a keyed record: each stdin line is a key
 * in hex ("" for the empty key); for each partition count given as an argument, prints
 * BuiltInPartitioner.partitionForKey(key, count), space-separated, one line per key.
 * compat_tests/test_cli_partitioner.py compares odradek produce's choice with it.
 */
public final class PartitionerCheck {
    public static void main(String[] args) throws Exception {
        int[] counts = new int[args.length];
        for (int i = 0; i < args.length; i++) counts[i] = Integer.parseInt(args[i]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            byte[] key = HexFormat.of().parseHex(line.trim());
            for (int i = 0; i < counts.length; i++) {
                if (i > 0) out.append(' ');
                out.append(BuiltInPartitioner.partitionForKey(key, counts[i]));
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
