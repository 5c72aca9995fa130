"""Security as Kafka's, sans-IO: SASL exchanges (and later principals, the ACL authorizer, quotas)."""
