package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** odradek as the Kafka of a JUnit 5 suite: one broker for the class, faults over its HTTP control API. */
class OrdersTest {
    static Process broker;
    static String bootstrap;
    static String control;
    static final HttpClient http = HttpClient.newHttpClient();

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @BeforeAll
    static void startOdradek() throws Exception {
        int port = freePort();
        int httpPort = freePort();
        Path dir = Files.createTempDirectory("odradek-junit-");
        String odradek = System.getenv().getOrDefault("ODRADEK", "odradek");
        List<String> cmd = new ArrayList<>(Arrays.asList(odradek.trim().split("\\s+")));
        cmd.addAll(List.of("serve", "--port", String.valueOf(port), "--http-port", String.valueOf(httpPort),
                "--data-dir", dir.toString(), "--override", "odradek.testing.control.enable=true"));
        broker = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(broker.getInputStream()))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.contains("odradek ready")) ready.complete(true);
                }
            } catch (Exception e) {
                ready.completeExceptionally(e);
            }
            ready.complete(false);
        });
        reader.setDaemon(true);
        reader.start();
        assertTrue(ready.get(60, TimeUnit.SECONDS), "odradek did not start");
        bootstrap = "127.0.0.1:" + port;
        control = "http://127.0.0.1:" + httpPort;
    }

    @AfterAll
    static void stopOdradek() throws Exception {
        broker.destroy();
        broker.waitFor(30, TimeUnit.SECONDS);
    }

    static HttpResponse<String> call(String method, String path, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(control + path))
                .header("Content-Type", "application/json");
        b.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void produceSurvivesNotLeaderTwice() throws Exception {
        HttpResponse<String> injected = call("POST", "/control/faults",
                "{\"api\": \"Produce\", \"error\": \"NOT_LEADER_OR_FOLLOWER\", \"times\": 2, \"topic\": \"orders\"}");
        assertEquals(201, injected.statusCode(), injected.body());
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20);
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            RecordMetadata md = producer.send(new ProducerRecord<>("orders", "order-1")).get(30, TimeUnit.SECONDS);
            assertEquals(0, md.offset());
        }
        assertEquals("{\"faults\": []}", call("GET", "/control/faults", null).body());  // both refusals taken
    }

    @Test
    void unknownErrorNameIsRefused() throws Exception {
        HttpResponse<String> r = call("POST", "/control/faults", "{\"api\": \"Produce\", \"error\": \"NOT_A_LEADER\"}");
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("unknown error 'NOT_A_LEADER'"), r.body());
    }
}
