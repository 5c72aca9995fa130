"""Metadata: KRaft records -> immutable MetadataImage; the single-voter controller.

image.py (MetadataImage/Delta), records.py (record serde), metadata_log.py (the
__cluster_metadata log), configs.py (topic configs), topic_validation.py, controller.py.
"""

from .controller import Controller, CreateTopicResult, CreateTopicSpec  # noqa: F401
from .image import BrokerImage, MetadataImage, PartitionImage, TopicImage  # noqa: F401
