import sys

from apache_kafka import _main

raise SystemExit(_main(sys.argv[1:]))
