def binary_search(nums: list[int], target: int) -> int:
    """Index of the first occurrence of target in the sorted list nums, or -1."""
    lo, hi = 0, len(nums)
    while lo < hi:
        mid = (lo + hi) // 2
        if nums[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < len(nums) and nums[lo] == target else -1
