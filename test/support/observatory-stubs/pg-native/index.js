throw new Error('pg-native is not installed (stub for the Observatory side-by-side tests)')
