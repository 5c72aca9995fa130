"""tests/ is on sys.path (pytest puts a root conftest's directory there), so every test can import
the shared fakes in tests/fake_services.py."""
