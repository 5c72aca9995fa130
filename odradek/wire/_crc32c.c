/* odradek.wire._crc32c: crc32c(data, value=0) -> int, the CRC-32C of a bytes-like
 * object, continuing from `value` (the CRC of what came before). Optional: when it is
 * not built, odradek.wire.records uses the `crc32c` package, which computes the same.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "crc32c_impl.h"

#define RELEASE_GIL_BYTES (256 * 1024)

static PyObject *crc32c_func(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "crc32c(data, value=0)");
        return NULL;
    }
    uint32_t value = 0;
    if (nargs == 2) {
        unsigned long v = PyLong_AsUnsignedLong(args[1]);
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return NULL;
        if (v > 0xffffffffUL) {
            PyErr_SetString(PyExc_OverflowError, "value must fit in 32 bits");
            return NULL;
        }
        value = (uint32_t)v;
    }
    Py_buffer b;
    if (PyObject_GetBuffer(args[0], &b, PyBUF_SIMPLE) < 0)
        return NULL;
    uint32_t crc;
    if (b.len >= RELEASE_GIL_BYTES) {
        Py_BEGIN_ALLOW_THREADS
        crc = crc32c_update(value, b.buf, (size_t)b.len);
        Py_END_ALLOW_THREADS
    } else {
        crc = crc32c_update(value, b.buf, (size_t)b.len);
    }
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLong(crc);
}

static PyObject *software(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* the table-driven path alone, so that tests check it on any CPU */
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "crc32c_software(data)");
        return NULL;
    }
    Py_buffer b;
    if (PyObject_GetBuffer(args[0], &b, PyBUF_SIMPLE) < 0)
        return NULL;
    uint32_t crc = ~crc32c_sw(~0u, b.buf, (size_t)b.len);
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLong(crc);
}

static PyObject *hardware(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(crc32c_hw);
}

static PyObject *implementation(PyObject *self, PyObject *unused) {
    return PyUnicode_FromString(crc32c_fold_hw ? "vpclmulqdq" : crc32c_hw ? "sse4.2" : "table");
}

static PyObject *crc32c_path(PyObject *self, PyObject *args) {
    /* one implementation by name, so that tests check each one the CPU has */
    const char *name;
    Py_buffer b;
    if (!PyArg_ParseTuple(args, "y*s:crc32c_path", &b, &name))
        return NULL;
    uint32_t crc;
    const unsigned char *p = b.buf;
    size_t n = (size_t)b.len;
    if (strcmp(name, "table") == 0)
        crc = ~crc32c_sw(~0u, p, n);
#ifdef CRC32C_X86
    else if (strcmp(name, "sse4.2") == 0 && crc32c_hw)
        crc = ~crc32c_x86(~0u, p, n);
    else if (strcmp(name, "vpclmulqdq") == 0 && crc32c_fold_hw && n >= CRC32C_FOLD_MIN)
        crc = ~crc32c_fold(~0u, p, n);
#endif
    else {
        PyBuffer_Release(&b);
        PyErr_Format(PyExc_ValueError, "no CRC-32C path %s for %zd bytes on this CPU", name, b.len);
        return NULL;
    }
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLong(crc);
}

static PyMethodDef methods[] = {
    {"crc32c", (PyCFunction)(void (*)(void))crc32c_func, METH_FASTCALL,
     "crc32c(data, value=0): CRC-32C of data, continuing from value."},
    {"crc32c_software", (PyCFunction)(void (*)(void))software, METH_FASTCALL,
     "crc32c_software(data): the same CRC by the table-driven path."},
    {"hardware", hardware, METH_NOARGS, "True when the CPU's CRC32 instruction is used."},
    {"implementation", implementation, METH_NOARGS,
     "The fastest path this CPU allows: 'vpclmulqdq' (from 256 bytes), 'sse4.2' or 'table'."},
    {"crc32c_path", crc32c_path, METH_VARARGS,
     "crc32c_path(data, name): the CRC-32C of data by one path ('table', 'sse4.2', 'vpclmulqdq')."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "odradek.wire._crc32c", NULL, -1, methods,
};

PyMODINIT_FUNC PyInit__crc32c(void) {
    crc32c_init();
    return PyModule_Create(&module);
}
