"""meta.properties of the metadata directory: the cluster id, written once (Kafka's
MetaPropertiesEnsemble; odradek writes it on first start instead of `kafka-storage format`)."""

from __future__ import annotations

import posixpath
from typing import Callable

from odradek.wire.uuid import uuid_str

from .fs import FileSystem, read_whole, write_atomic

FILE_NAME = "meta.properties"


def load_or_create_cluster_id(fs: FileSystem, data_dir: str, node_id: int, new_uuid: Callable[[], bytes]) -> str:
    fs.makedirs(data_dir)
    path = posixpath.join(data_dir, FILE_NAME)
    if fs.exists(path):
        for line in read_whole(fs, path).decode().splitlines():
            k, _, v = line.strip().partition("=")
            if k == "cluster.id" and v:
                return v
    cluster_id = uuid_str(new_uuid())
    write_atomic(fs, path, (f"#\ncluster.id={cluster_id}\ndirectory.id={uuid_str(new_uuid())}\n"
                            f"node.id={node_id}\nversion=1\n").encode())
    return cluster_id
