"""The web console: pages about a Kafka cluster, read over the Kafka protocol (any broker)."""
