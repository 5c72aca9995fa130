"""odradek/controller/kafka_broker_config_names.py is Kafka 4.3's broker config names, as its jars say:
AbstractKafkaConfig.CONFIG_DEF.names() and DynamicBrokerConfig.ALL_DYNAMIC_CONFIGS, printed by the JVM
from the jars apache_kafka fetches (the list decides which names a BROKER resource stores unchecked)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from odradek.controller.kafka_broker_config_names import KAFKA_BROKER_CONFIG_NAMES

PRINT_NAMES = """
public class PrintNames {
  public static void main(String[] args) {
    java.util.TreeSet<String> names = new java.util.TreeSet<>(
        org.apache.kafka.server.config.AbstractKafkaConfig.CONFIG_DEF.names());
    names.addAll(org.apache.kafka.server.config.DynamicBrokerConfig.ALL_DYNAMIC_CONFIGS);
    names.forEach(System.out::println);
  }
}
"""


@pytest.mark.skipif(shutil.which("java") is None, reason="needs a JVM")
def test_the_names_are_kafkas(kafka_jars, tmp_path):
    src = tmp_path / "PrintNames.java"
    src.write_text(PRINT_NAMES)
    r = subprocess.run(["java", "-cp", f"{kafka_jars}/*", str(src)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert set(r.stdout.split()) == KAFKA_BROKER_CONFIG_NAMES
