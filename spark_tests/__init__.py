"""PySpark + Spark's Kafka connector against a live broker (a package, so this conftest is `spark_tests.conftest` and never shadows compat_tests' `conftest`)."""
