def site(request):
    return {}
