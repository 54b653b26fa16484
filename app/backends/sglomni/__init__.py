"""The SGLang-Omni backend: a managed `sgl-omni serve` per model, spoken to over HTTP."""
