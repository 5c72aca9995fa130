"""meta.properties of the metadata directory: the cluster id, written once (Kafka's
MetaPropertiesEnsemble; odradek writes it on first start instead of `kafka-storage format`)."""

from __future__ import annotations

import base64
import posixpath
from typing import Callable

from odradek.wire.uuid import uuid_str

from .fs import FileSystem, read_whole, write_atomic

FILE_NAME = "meta.properties"


def read_meta_properties(fs: FileSystem, data_dir: str) -> dict[str, str]:
    """The key=value lines of data_dir/meta.properties (as `kafka-storage format` writes them);
    {} when there is no such file."""
    path = posixpath.join(data_dir, FILE_NAME)
    if not fs.exists(path):
        return {}
    out = {}
    for line in read_whole(fs, path).decode().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            k, _, v = line.partition("=")
            out[k.strip()] = v.strip()
    return out


def load_or_create_cluster_id(fs: FileSystem, data_dir: str, node_id: int, new_uuid: Callable[[], bytes]) -> str:
    fs.makedirs(data_dir)
    path = posixpath.join(data_dir, FILE_NAME)
    stored = read_meta_properties(fs, data_dir).get("cluster.id")
    if stored:
        return stored
    cluster_id = uuid_str(new_uuid())
    write_atomic(fs, path, (f"#\ncluster.id={cluster_id}\ndirectory.id={uuid_str(new_uuid())}\n"
                            f"node.id={node_id}\nversion=1\n").encode())
    return cluster_id


def ensure_meta_properties(fs: FileSystem, data_dir: str, node_id: int, cluster_id: str,
                           new_uuid: Callable[[], bytes]) -> dict[str, str]:
    """data_dir/meta.properties as a formatted Kafka log dir holds it (cluster.id, directory.id,
    node.id, version=1): the stored values are kept, missing ones are added (``cluster_id`` and a
    new directory id) and the file written once. Returns its keys."""
    fs.makedirs(data_dir)
    meta = read_meta_properties(fs, data_dir)
    want = {"cluster.id": meta.get("cluster.id") or cluster_id,
            "directory.id": meta.get("directory.id") or uuid_str(new_uuid()),
            "node.id": meta.get("node.id") or str(node_id), "version": meta.get("version") or "1"}
    if any(meta.get(k) != v for k, v in want.items()):
        meta.update(want)
        write_atomic(fs, posixpath.join(data_dir, FILE_NAME),
                     ("#\n" + "".join(f"{k}={v}\n" for k, v in meta.items())).encode())
    return meta


def directory_id(meta: dict[str, str]) -> bytes:
    """The 16 bytes of a meta.properties' directory.id (Kafka's Uuid text, base64url)."""
    raw = meta["directory.id"]
    return base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
