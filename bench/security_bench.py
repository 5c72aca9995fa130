"""Produce and consume over SASL_SSL (SCRAM-SHA-512): odradek against Apache Kafka 4.3, same machine,
same run, same client (confluent-kafka / librdkafka), and each broker against itself over PLAINTEXT.

Both brokers get a PLAINTEXT and a SASL_SSL listener (a CA and a server certificate made for the run,
PEM key store; TLS 1.3 as negotiated by librdkafka and each broker's TLS stack; one SCRAM-SHA-512
user made with AlterUserScramCredentials). Repetitions alternate between the brokers as in
bench/e2e_bench.py (whose helpers, summary and table this uses).

    python -m bench.security_bench [--quick] [--reps N] [--only odradek|kafka] [--out DIR]

Rows (1 KiB values, 1 partition)
  produce_<listener>_MBps        acks=1, librdkafka defaults otherwise
  consume_<listener>_MBps        a topic read from the beginning (assign, no group)
  cpu_s_per_GB_<phase>_<listener> the broker's CPU seconds (user+sys) per GB of values
  sasl_ssl_over_plaintext_<phase>  per broker: the SASL_SSL rate / the PLAINTEXT rate of the same
                                  repetition (paired; the odradek/Kafka column compares those ratios)
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.e2e_bench import Bench, consume, create_topic, default_data_dir, delete_topic, produce, report, \
    summarize  # noqa: E402
from bench.kafka_ref import BROKERS, free_port  # noqa: E402
from compat_tests.tls_certs import TestCA  # noqa: E402

USER, PASSWORD = "bench", "bench-secret"
LISTENERS = ("plaintext", "sasl_ssl")
PRODUCE_BYTES = 256_000_000
CONSUME_BYTES = 256_000_000
SIZE = 1024


def sasl_ssl_settings(key_store: Path) -> dict[str, str]:
    scram = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
    return {"ssl.keystore.type": "PEM", "ssl.keystore.location": str(key_store),
            "sasl.enabled.mechanisms": "SCRAM-SHA-512",
            "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config": scram}


def add_scram_user(bootstrap: str) -> None:
    from confluent_kafka.admin import AdminClient, ScramCredentialInfo, ScramMechanism, UserScramCredentialUpsertion

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    for f in admin.alter_user_scram_credentials([UserScramCredentialUpsertion(
            USER, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), PASSWORD.encode(),
            hashlib.sha256(b"bench-salt").digest()[:16])]).values():
        f.result(30)


class SecurityBench(Bench):
    def start_all(self, root: str) -> None:
        certs = Path(root) / "certs"
        certs.mkdir()
        self.ca = TestCA(certs)
        key_store = self.ca.keystore_pem("broker", "localhost")  # unencrypted: Java's PEM reader lacks PBES2
        self.ports = {}
        for name in self.names:
            port = free_port()
            b = BROKERS[name](os.path.join(root, name), extra=sasl_ssl_settings(key_store),
                              more_listeners={"SASL_SSL": port})
            s = b.start()
            self.brokers[name] = b
            self.ports[name] = port
            add_scram_user(b.bootstrap)
            self.log(f"{name}: Metadata answered {s:.2f} s after start")

    def client(self, name: str, listener: str) -> tuple[str, dict]:
        """(bootstrap, client settings) of a broker's listener."""
        b = self.brokers[name]
        if listener == "plaintext":
            return b.bootstrap, {}
        return f"127.0.0.1:{self.ports[name]}", {
            "security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": USER,
            "sasl.password": PASSWORD, "ssl.ca.location": str(self.ca.ca_file)}

    def warm_up(self) -> None:
        count = 20_000 if self.quick else 100_000
        for name in self.names:
            topic = f"warmup-{uuid.uuid4().hex[:6]}"
            create_topic(self.brokers[name].bootstrap, topic, 1)
            for listener in LISTENERS:
                bs, extra = self.client(name, listener)
                produce(bs, topic, SIZE, count, "1", extra)
                consume(bs, topic, 1, count, extra)
            delete_topic(self.brokers[name].bootstrap, topic)
            self.log(f"{name}: warmed up")

    def phase(self, kind: str) -> None:
        div = 8 if self.quick else 1
        count = (PRODUCE_BYTES if kind == "produce" else CONSUME_BYTES) // SIZE // div
        topics = {}
        if kind == "consume":  # one topic per broker, written once, read over each listener
            for name in self.names:
                topics[name] = f"consume-{uuid.uuid4().hex[:6]}"
                create_topic(self.brokers[name].bootstrap, topics[name], 1)
                produce(self.brokers[name].bootstrap, topics[name], SIZE, count, "1")
        for rep in range(self.reps):
            order = self.names if rep % 2 == 0 else self.names[::-1]
            for name in order:
                rates = {}
                for listener in LISTENERS:
                    bs, extra = self.client(name, listener)
                    if kind == "produce":
                        topic = f"produce-{listener}-{rep}-{uuid.uuid4().hex[:6]}"
                        create_topic(self.brokers[name].bootstrap, topic, 1)
                        run = lambda: produce(bs, topic, SIZE, count, "1", extra)  # noqa: E731
                    else:
                        run = lambda: consume(bs, topics[name], 1, count, extra)  # noqa: E731
                    dt = self.measured(name, f"{kind}_{listener}", count * SIZE, run,
                                       per_rep=f"cpu_s_per_GB_{kind}_{listener}")
                    rates[listener] = count * SIZE / dt / 1e6
                    self.add(f"{kind}_{listener}_MBps", name, rates[listener])
                    if kind == "produce":
                        delete_topic(self.brokers[name].bootstrap, topic)
                self.add(f"sasl_ssl_over_plaintext_{kind}", name, rates["sasl_ssl"] / rates["plaintext"])
        self.log(f"{kind}: " + ", ".join(
            f"{n} {statistics.median(self.samples[f'{kind}_plaintext_MBps'][n]):.1f} / "
            f"{statistics.median(self.samples[f'{kind}_sasl_ssl_MBps'][n]):.1f} MB/s" for n in self.names))
        for name, topic in topics.items():
            delete_topic(self.brokers[name].bootstrap, topic)

    def run(self) -> dict:
        self.names = [self.args.only] if self.args.only else ["odradek", "kafka"]
        t_start = time.monotonic()
        self.data_dir = self.args.dir or default_data_dir()
        with tempfile.TemporaryDirectory(prefix="odradek-security-bench-", dir=self.data_dir) as root:
            try:
                self.start_all(root)
                self.warm_up()
                self.phase("produce")
                self.phase("consume")
            finally:
                for b in self.brokers.values():
                    b.stop()
        result = summarize(self.samples, self.names, {
            "quick": self.quick, "reps": self.reps, "wall_s": round(time.monotonic() - t_start, 1),
            "data_dir": self.data_dir or tempfile.gettempdir(), "size": SIZE, "mechanism": "SCRAM-SHA-512"})
        for metric, m in result["metrics"].items():
            if metric.startswith("sasl_ssl_over_plaintext"):
                m["higher_is_better"] = True
        return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1 repetition, 1/8 of the data")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--only", choices=["odradek", "kafka"])
    ap.add_argument("--dir", default=None, help="where the brokers' data dirs go (default: as bench.e2e_bench)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args(argv)
    return report(SecurityBench(args).run(), args.out, "security")


if __name__ == "__main__":
    raise SystemExit(main())
